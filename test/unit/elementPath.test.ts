import { describe, expect, it } from 'vitest';
import { expandElementPath } from '../../shared/events/elementPath';

describe('wire-protocol click target from the flat element path', () => {
  it('rebuilds nested parentElem records with attrs, indexes and text', () => {
    const path = [
      'Save',
      'BUTTON', 'save', 'btn primary', null, 2, 'type', 'button', 'data-x', '1', 0, 3,
      'FORM', '', 'settings', 'Settings', 0, 1, 1,
      'BODY', '', '', null, 0, 0, 1,
    ];
    expect(expandElementPath(path)).toEqual({
      tag: 'BUTTON', id: 'save', cls: 'btn primary', title: null, attrs: { type: 'button', 'data-x': '1' }, myIndex: 0, childIndex: 3, txt: 'Save',
      parentElem: {
        tag: 'FORM', id: '', cls: 'settings', title: 'Settings', attrs: {}, myIndex: 1, childIndex: 1,
        parentElem: { tag: 'BODY', id: '', cls: '', title: null, attrs: {}, myIndex: 0, childIndex: 1 },
      },
    });
  });

  it('gives nothing for an empty path and stops at a truncated level', () => {
    expect(expandElementPath([null])).toBeUndefined();
    expect(expandElementPath([null, 'A', '', '', null, 0, 0, 0, 'DIV', 'x'])).toEqual({ tag: 'A', id: '', cls: '', title: null, attrs: {}, myIndex: 0, childIndex: 0 });
  });
});
