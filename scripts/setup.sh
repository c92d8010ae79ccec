#!/usr/bin/env bash
# Installs what the project needs on a fresh machine: npm packages, and (unless --no-browser, which `npm start`
# passes) what only the tests and the benchmark use: Debian's Chromium for the end-to-end tests and Debian's
# PostgreSQL, which the server tests start on a temporary folder (test/server/startPostgres.ts), and Debian's nginx
# and openssl, the TLS-terminating reverse proxy and its throwaway certificate of the behind-a-proxy test
# (test/server/postgres/behindProxy.test.ts), and the other engines of the cross-engine journeys (test/engines/):
# Debian's Firefox ESR (driven over WebDriver BiDi by puppeteer-core) and WebKitGTK's WebKitWebDriver with its
# MiniBrowser, which needs a display: Xvfb (and xauth, which xvfb-run uses). Playwright's own browser download is
# never used: tests drive /usr/bin/chromium. Safe to run again; it does nothing when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=1
for arg in "$@"; do
  [ "$arg" = "--no-browser" ] && want_browser=0
done

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi

packages=()
if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  packages+=(chromium fonts-dejavu-core)
fi
if [ "$want_browser" = 1 ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  packages+=(postgresql)
fi
if [ "$want_browser" = 1 ] && ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  packages+=(nginx)
fi
if [ "$want_browser" = 1 ] && ! command -v openssl >/dev/null 2>&1; then
  packages+=(openssl)
fi
if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/firefox-esr ]; then
  packages+=(firefox-esr)
fi
if [ "$want_browser" = 1 ] && ! command -v WebKitWebDriver >/dev/null 2>&1; then
  packages+=(webkit2gtk-driver)
fi
if [ "$want_browser" = 1 ] && ! command -v Xvfb >/dev/null 2>&1; then
  packages+=(xvfb)
fi
if [ "$want_browser" = 1 ] && ! command -v xauth >/dev/null 2>&1; then
  packages+=(xauth)
fi
if [ "${#packages[@]}" -gt 0 ]; then
  echo "setup: installing Debian's ${packages[*]} (needs root)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${packages[@]}" >/dev/null
fi
