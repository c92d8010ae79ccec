/**
 * Segments of an app (issue #35 "Segments, and guides that target them"), under `/api/apps/{apiKey}/segments`:
 * - `POST` `{ "name", "definition" }` -> 201 `{ "id" }`; `GET` the list, each with its live `count` (`?counts=false`:
 *   the definitions only, cheap, for a picker);
 * - `GET .../{id}` -> the segment, its `count` and the `guides` whose audience it is;
 * - `GET .../{id}/members?limit&cursor` -> `{ members: [{ visitorId, accountId, lastSeen }], next }`, in visitor id
 *   order, `limit` 1..500 (default 100), `cursor` the `next` of the page before;
 * - `PATCH .../{id}` `{ "name"?, "definition"? }` -> the segment; `DELETE` -> 204, or 409 naming the guides whose
 *   audience it is.
 * Viewers read; editors and admins write (auth/roles, as features). Each change is audited
 * (`segment.created|updated|deleted`) and drops what the guide.json judge keeps of the app. Bodies: segmentBody
 * (400 naming the field); a feature, page or guide id that is not the app's is a 400 naming the condition's field.
 * Counts and members: segmentMembers, after the summarizer is flushed (the members are the summaries' visitors).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf } from '../../auth/routeAccess';
import { HttpError } from '../../HttpError';
import { limitParam, queryParam, type ConsoleQuery } from '../../queries/queryParams';
import type { Database } from '../../storage/Database';
import type { Summarizer } from '../../summaries/createSummarizer';
import type { Segment, SegmentDetail, SegmentMembers, SegmentRow } from '../../../shared/api/segments';
import type { StepSources } from '../funnelSteps';
import { resolveRules } from './behaviourCounts';
import { MAX_SEGMENTS_PER_APP, type SegmentStore } from './createSegmentStore';
import { rulesOf, type SegmentJudge } from './createSegmentJudge';
import { MAX_SEGMENT_BODY_BYTES, readSegmentBody, type BehaviourRule } from './segmentBody';
import { MAX_JUDGED_VISITORS, querySegmentMembers } from './segmentMembers';

/** What the segment routes read and write. */
export interface SegmentRoutesOptions extends StepSources {
  db: Database;
  segments: SegmentStore;
  /** The guide.json judge: told when a segment changes. */
  judge: Pick<SegmentJudge, 'forget'>;
  summaries: Pick<Summarizer, 'flush'>;
  /** @default Date.now */
  now?: () => number;
}

type SegmentRequest = FastifyRequest<{ Params: { apiKey: string; id: string }; Querystring: ConsoleQuery; Body: unknown }>;

const notFound = (id: string, apiKey: string) => new HttpError(404, `no segment '${id.slice(0, 100)}' in app '${apiKey}'`);

/** Registers the segment routes. */
export function registerSegmentRoutes(app: FastifyInstance, options: SegmentRoutesOptions): void {
  const { db, segments, judge, summaries, rules, guideStepIds, now = Date.now } = options;
  const viewer = accessOf('viewer');
  const editor = { ...accessOf('editor'), bodyLimit: MAX_SEGMENT_BODY_BYTES };

  /** A 400 naming the condition whose feature, page or guide is not the app's. */
  const checkReferences = async (apiKey: string, checked: readonly BehaviourRule[]) => {
    for (const [i, rule] of checked.entries()) {
      const at = `definition.behaviour[${i}]${rule.never ? '.never' : ''}`;
      const step = rule.step;
      if ('feature' in step && !(await rules.getFeature(apiKey, step.feature))) {
        throw new HttpError(400, `${at}.feature '${step.feature.slice(0, 100)}' is not a feature of this app (GET .../features)`, `${at}.feature`);
      }
      if ('page' in step && !(await rules.getPage(apiKey, step.page))) {
        throw new HttpError(400, `${at}.page '${step.page.slice(0, 100)}' is not a page of this app (GET .../pages)`, `${at}.page`);
      }
      if ('guide' in step && !(await guideStepIds(apiKey, step.guide))) {
        throw new HttpError(400, `${at}.guideSeen '${step.guide.slice(0, 100)}' is not a guide of this app`, `${at}.guideSeen`);
      }
    }
  };

  /** Every member, resolved now (the console's count is live: an element first clicked a second ago counts). */
  const membersOf = async (apiKey: string, segment: Segment) => {
    const resolved = await resolveRules(db, apiKey, rulesOf(segment.definition), { rules, guideStepIds });
    const { members, tooMany } = await querySegmentMembers(db, apiKey, segment, resolved, now());
    if (tooMany) throw new HttpError(400, `this app has more than ${MAX_JUDGED_VISITORS} visitors, more than a segment judges exactly yet`);
    return members;
  };

  app.get('/api/apps/:apiKey/segments', viewer, async (request: SegmentRequest): Promise<SegmentRow[] | Segment[]> => {
    const apiKey = request.params.apiKey;
    const counts = queryParam(request.query, 'counts');
    if (counts !== undefined && counts !== 'false') throw new HttpError(400, "counts may only be 'false' (the definitions without their counts, for a picker)", 'counts');
    const list = await segments.list(apiKey);
    if (counts === 'false') return list;
    if (list.length) await summaries.flush();
    const rows: SegmentRow[] = [];
    for (const segment of list) rows.push({ ...segment, count: (await membersOf(apiKey, segment)).length });
    return rows;
  });

  app.post('/api/apps/:apiKey/segments', editor, async (request: SegmentRequest, reply) => {
    const apiKey = request.params.apiKey;
    const { name, definition, rules: checked } = readSegmentBody(request.body, false);
    await checkReferences(apiKey, checked!);
    const made = await segments.create(apiKey, name!, definition!, now());
    if (made === 'too many') throw new HttpError(409, `this app has ${MAX_SEGMENTS_PER_APP} segments already, the most it may have: delete one first`);
    judge.forget(apiKey);
    await app.audit(request, { action: 'segment.created', apiKey, target: made.id, after: made });
    return reply.code(201).send({ id: made.id });
  });

  app.get('/api/apps/:apiKey/segments/:id', viewer, async (request: SegmentRequest): Promise<SegmentDetail> => {
    const { apiKey, id } = request.params;
    const segment = await segments.get(apiKey, id);
    if (!segment) throw notFound(id, apiKey);
    await summaries.flush();
    const count = (await membersOf(apiKey, segment)).length;
    return { ...segment, count, guides: await segments.guidesUsing(apiKey, id) };
  });

  app.get('/api/apps/:apiKey/segments/:id/members', viewer, async (request: SegmentRequest): Promise<SegmentMembers> => {
    const { apiKey, id } = request.params;
    const limit = limitParam(request.query);
    const cursor = queryParam(request.query, 'cursor');
    if (cursor !== undefined && cursor.length > 1000) throw new HttpError(400, 'cursor must be the next of the page before', 'cursor');
    const segment = await segments.get(apiKey, id);
    if (!segment) throw notFound(id, apiKey);
    await summaries.flush();
    // Code unit order, the same for the cursor as for the list, whatever the database's collation.
    const all = (await membersOf(apiKey, segment)).sort((a, b) => (a.visitorId < b.visitorId ? -1 : a.visitorId > b.visitorId ? 1 : 0));
    const after = cursor === undefined ? all : all.filter((m) => m.visitorId > cursor);
    const page = after.slice(0, limit);
    return { members: page, next: after.length > limit ? page[page.length - 1]!.visitorId : null };
  });

  app.patch('/api/apps/:apiKey/segments/:id', editor, async (request: SegmentRequest): Promise<Segment> => {
    const { apiKey, id } = request.params;
    const { rules: checked, ...change } = readSegmentBody(request.body, true);
    const before = await segments.get(apiKey, id);
    if (!before) throw notFound(id, apiKey);
    if (checked) await checkReferences(apiKey, checked);
    const after = await segments.update(apiKey, id, change, now());
    if (!after) throw notFound(id, apiKey);
    judge.forget(apiKey);
    await app.audit(request, { action: 'segment.updated', apiKey, target: id, before, after });
    return after;
  });

  app.delete('/api/apps/:apiKey/segments/:id', editor, async (request: SegmentRequest, reply) => {
    const { apiKey, id } = request.params;
    const before = await segments.get(apiKey, id);
    const removed = before ? await segments.remove(apiKey, id) : false;
    if (!before || removed === false) throw notFound(id, apiKey);
    if (removed !== true) {
      const names = removed.usedBy.map((g) => `'${g.name}' (${g.id})`).join(', ');
      throw new HttpError(409, `segment '${before.name}' is the audience of guide${removed.usedBy.length > 1 ? 's' : ''} ${names}: change ${removed.usedBy.length > 1 ? 'their' : 'its'} audience first`);
    }
    judge.forget(apiKey);
    await app.audit(request, { action: 'segment.deleted', apiKey, target: id, before });
    return reply.code(204).send();
  });
}
