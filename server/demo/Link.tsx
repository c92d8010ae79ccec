/**
 * An anchor that navigates in-app on a plain click and behaves like a normal link otherwise
 * (new tab with Ctrl/Cmd/Shift/middle click, copy link address).
 */
import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from './navigate';

/** Props of `Link`: an anchor whose `href` is an in-app path. */
export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
}

/** In-app link. */
export function Link({ href, onClick, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handleClick} {...rest} />;
}
