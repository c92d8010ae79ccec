/**
 * The compact form in which the shim hands a clicked element and its ancestors to the worker, and its
 * expansion into the wire's nested `parentElem` records (wire-protocol.md "click").
 *
 * Why flat: the shim pays for every object it allocates and for structured-cloning it across to the
 * worker. Measured in Chromium here for a button 10 levels deep, building nested records and cloning them
 * cost ~7 + ~25 µs; one flat array of strings and numbers ~7 + ~7 µs. The worker rebuilds the nesting.
 *
 * Layout: `[txt, ...level, ...level, ...]`, `txt` the element's text or null, each level
 * `tag, id, cls, title, attrCount, name1, value1, ..., myIndex, childIndex`, element first, up to BODY.
 */
import type { ElementData, ElementPath } from './events';

export type { ElementPath };

/** Rebuilds the nested element record from its flat path; tolerates a truncated path. */
export function expandElementPath(path: ElementPath): ElementData | undefined {
  let root: ElementData | undefined;
  let current: ElementData | undefined;
  let i = 1;
  while (i + 4 < path.length) {
    const level: ElementData = {
      tag: String(path[i]),
      id: String(path[i + 1] ?? ''),
      cls: String(path[i + 2] ?? ''),
      title: path[i + 3] === null ? null : String(path[i + 3]),
      attrs: {},
      myIndex: 0,
      childIndex: 0,
    };
    const count = Number(path[i + 4]) || 0;
    i += 5;
    for (let a = 0; a < count && i + 1 < path.length; a++, i += 2) level.attrs[String(path[i])] = String(path[i + 1]);
    level.myIndex = Number(path[i]) || 0;
    level.childIndex = Number(path[i + 1]) || 0;
    i += 2;
    if (!root) {
      root = level;
      if (typeof path[0] === 'string') root.txt = path[0];
    } else {
      current!.parentElem = level;
    }
    current = level;
  }
  return root;
}
