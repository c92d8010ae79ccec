import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { appKeyProblem, installSnippet } from '../../console/installSnippet';

describe('the console\'s Install page: the snippet and the app key', () => {
  it('is shim/snippet.html with the key and this server\'s waymark.js filled in, its "replace these" comment left out', () => {
    const snippet = installSnippet('shop-web', 'https://collector.example');
    const original = readFileSync('shim/snippet.html', 'utf8');
    expect(snippet.startsWith('<script>')).toBe(true);
    expect(snippet).toContain("})(window, document, 'waymark', 'https://collector.example/waymark.js', []);");
    expect(snippet).toContain("waymark.initialize({ apiKey: 'shop-web' });");
    expect(snippet).not.toContain('YOUR_API_KEY');
    // Everything else as the docs give it.
    expect(snippet.replace("'https://collector.example/waymark.js'", "'/waymark.js'").replace("'shop-web'", "'YOUR_API_KEY'")).toBe(original.replace(/^<!--[\s\S]*?-->\n/, '').trimEnd());
    // A key from the address is written as a string literal, whatever it holds.
    expect(installSnippet("it's\\", 'https://c.example')).toContain("apiKey: 'it\\'s\\\\'");
  });

  it('takes 1 to 64 letters, digits, dots, dashes and underscores, starting with a letter or digit', () => {
    for (const good of ['a', 'shop-web', 'App_2.prod', 'x'.repeat(64)]) expect(appKeyProblem(good), good).toBeNull();
    expect(appKeyProblem('')).toBe('Give the app a key');
    for (const bad of ['my shop', '-shop', 'shop/web', 'x'.repeat(65), 'é']) {
      expect(appKeyProblem(bad), bad).toBe("An app key is 1 to 64 letters, digits, '.', '-' or '_', starting with a letter or a digit");
    }
  });
});
