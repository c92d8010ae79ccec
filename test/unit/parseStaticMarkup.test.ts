/** Issue #34: React's static markup as PaintedNode[] (how the tests read React's own render of a step): what React writes, and its edges. */
import { describe, expect, it } from 'vitest';
import { decodeEntities, parseStaticMarkup } from './parseStaticMarkup';

describe('issue #34 parseStaticMarkup', () => {
  it('elements, attributes in order, text, nesting and siblings', () => {
    expect(parseStaticMarkup('<div class="a" id="b"><p>one</p>two<span>three</span></div><hr/>')).toEqual([
      ['div', [['class', 'a'], ['id', 'b']], [['p', [], ['one']], 'two', ['span', [], ['three']]]],
      ['hr', [], []],
    ]);
  });

  it('void elements with and without the slash; an empty element has no children', () => {
    expect(parseStaticMarkup('<br><img src="x"/><input type="text" value=""/><p></p>')).toEqual([
      ['br', [], []],
      ['img', [['src', 'x']], []],
      ['input', [['type', 'text'], ['value', '']], []],
      ['p', [], []],
    ]);
  });

  it('boolean attributes: written ="" by React, bare by anyone else, both ""', () => {
    expect(parseStaticMarkup('<input type="radio" checked="" disabled/><div hidden></div>')).toEqual([
      ['input', [['type', 'radio'], ['checked', ''], ['disabled', '']], []],
      ['div', [['hidden', '']], []],
    ]);
  });

  it('decodes entities in text and attribute values, once', () => {
    expect(parseStaticMarkup('<p title="&quot;a&quot; &amp; &#x27;b&#x27; &lt;c&gt;">&lt;b&gt; &amp;amp; &#39;q&#39; &#x1F600;</p>')).toEqual([
      ['p', [['title', `"a" & 'b' <c>`]], [`<b> &amp; 'q' \u{1F600}`]],
    ]);
  });

  it('style stays CSS text, with its own colons, semicolons and quotes', () => {
    expect(parseStaticMarkup('<div style="width:min(320px, calc(100vw - 32px));font-family:&quot;A B&quot;, serif"></div>')).toEqual([
      ['div', [['style', 'width:min(320px, calc(100vw - 32px));font-family:"A B", serif']], []],
    ]);
  });

  it("'>' and '/' inside attribute values, and whitespace kept in text", () => {
    expect(parseStaticMarkup('<a href="https://x.example/a/b?c=1&amp;d=2" title="a > b">  hi  </a>')).toEqual([
      ['a', [['href', 'https://x.example/a/b?c=1&d=2'], ['title', 'a > b']], ['  hi  ']],
    ]);
  });

  it('comments are skipped, and the text around one is one text node', () => {
    expect(parseStaticMarkup('<p>a<!-- -->b<!--$--></p><!-- end -->')).toEqual([['p', [], ['ab']]]);
  });

  it('text at the top level, and nothing at all', () => {
    expect(parseStaticMarkup('just text &amp; more')).toEqual(['just text & more']);
    expect(parseStaticMarkup('')).toEqual([]);
  });

  it('a closing tag that does not match closes up to its element; a stray one is ignored', () => {
    expect(parseStaticMarkup('<div><span>a</div>b</p>c')).toEqual([['div', [], [['span', [], ['a']]]], 'bc']);
  });

  it('elements left open at the end are kept with what they hold', () => {
    expect(parseStaticMarkup('<div><p>a')).toEqual([['div', [], [['p', [], ['a']]]]]);
  });

  it('a < that starts no tag is text', () => {
    expect(parseStaticMarkup('a < b <3')).toEqual(['a < b <3']);
  });

  it("a style element's text is raw (React writes it unescaped)", () => {
    expect(parseStaticMarkup('<style>a > b { color: red }</style><p>x</p>')).toEqual([
      ['style', [], ['a > b { color: red }']],
      ['p', [], ['x']],
    ]);
  });

  it('tag and attribute names as a browser reads them (lower case)', () => {
    expect(parseStaticMarkup('<DIV Data-Poll-Id="Q1"></DIV>')).toEqual([['div', [['data-poll-id', 'Q1']], []]]);
  });
});

describe('issue #34 decodeEntities', () => {
  it("React's five, numeric ones, and what it leaves alone", () => {
    expect(decodeEntities('&amp;&lt;&gt;&quot;&#x27;')).toBe(`&<>"'`);
    expect(decodeEntities('&#65;&#x42;&apos;&nbsp;')).toBe("AB'\u00a0");
    expect(decodeEntities('&copy; &unknown; & &#; &amp')).toBe('&copy; &unknown; & &#; &amp');
    expect(decodeEntities('no entity')).toBe('no entity');
  });

  it('NUL, surrogates and code points beyond Unicode become U+FFFD, as a browser reads them', () => {
    expect(decodeEntities('&#0;&#xD800;&#x110000;')).toBe('\ufffd\ufffd\ufffd');
  });
});
