/**
 * The flow diagram of a paths answer (issue #35 "Funnels, paths, retention"): d3-sankey lays the folded tree out
 * (columns by level, bars by the number of paths, links as wide as their paths); React draws it into an SVG. Each
 * bar is labelled with its step and count; a page's or a feature's bar links to its detail screen (a keyboard
 * stop); each link and bar has a title with its count, its share of the start's occurrences and its visitors.
 * `previous` is drawn in time order too: the earliest steps on the left, the start in the last column.
 */
import { sankey, sankeyLinkHorizontal, type SankeyLink, type SankeyNode } from 'd3-sankey';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../format';
import type { PathLink, PathNode, PathNodeKind, PathsAnswer } from '../types';
import { consolePath } from '../pages/RuleActions';

/** The drawing's size in SVG units; the SVG scales to its card's width. */
const WIDTH = 960;
const ROW = 40;
const MIN_HEIGHT = 240;
/** Longest label drawn, in characters; the full one is in the title. */
const MAX_LABEL = 26;
/** Room right of the last column for its labels, in SVG units. */
const LABEL_ROOM = 190;

/** A colour per kind of step; the text beside each bar carries the meaning, not the colour alone. */
const COLORS: Record<PathNodeKind, string> = {
  page: '#4f46e5',
  feature: '#0d9488',
  track: '#d97706',
  url: '#64748b',
  other: '#94a3b8',
  end: '#cbd5e1',
};

type FlowNode = SankeyNode<PathNode, PathLink>;
type FlowLink = SankeyLink<PathNode, PathLink>;

/** `part` of `whole` as a percentage to one decimal. */
const share = (part: number, whole: number) => `${whole ? Math.round((part / whole) * 1000) / 10 : 0}%`;
const clip = (text: string) => (text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text);

/** A step's words: `(end)` before the start is where the session began. */
export function stepLabel(node: Pick<PathNode, 'kind' | 'label'>, direction: PathsAnswer['direction']): string {
  return node.kind === 'end' && direction === 'previous' ? '(session start)' : node.label;
}

/** Props of {@link PathsFlow}. */
export interface PathsFlowProps {
  apiKey: string;
  answer: PathsAnswer;
}

/** The diagram; the caller shows an empty state when the answer has no nodes. */
export function PathsFlow({ apiKey, answer }: PathsFlowProps) {
  const graph = useMemo(() => layout(answer), [answer]);
  const path = sankeyLinkHorizontal<PathNode, PathLink>();
  return (
    <svg className="paths-flow" viewBox={`0 0 ${WIDTH} ${graph.height}`} role="group" aria-label={`Paths ${answer.direction === 'next' ? 'after' : 'before'} ${answer.start.label}`}>
      <g className="paths-links" fill="none">
        {graph.links.map((link) => {
          const source = link.source as FlowNode;
          const target = link.target as FlowNode;
          // Coloured by the step farther from the start.
          const far = source.level > target.level ? source : target;
          return (
            <path key={`${source.id} ${target.id}`} d={path(link) ?? undefined} stroke={COLORS[far.kind]} strokeWidth={Math.max(1, link.width ?? 1)} strokeOpacity={0.35}>
              <title>{`${stepLabel(source, answer.direction)} → ${stepLabel(target, answer.direction)}: ${formatCount(link.count)} paths (${share(link.count, answer.occurrences)}), ${formatCount(link.visitors)} visitors`}</title>
            </path>
          );
        })}
      </g>
      <g className="paths-nodes">
        {graph.nodes.map((node) => (
          <FlowBar key={node.id} apiKey={apiKey} node={node} label={stepLabel(node, answer.direction)} occurrences={answer.occurrences} />
        ))}
      </g>
    </svg>
  );
}

/** One step: its bar, its label and count, a link to its detail screen for a page or a feature. */
function FlowBar({ apiKey, node, label, occurrences }: { apiKey: string; node: FlowNode; label: string; occurrences: number }) {
  const [x0, x1, y0, y1] = [node.x0 ?? 0, node.x1 ?? 0, node.y0 ?? 0, node.y1 ?? 0];
  const title = `${label}: ${formatCount(node.count)} paths (${share(node.count, occurrences)}), ${formatCount(node.visitors)} visitors`;
  const drawn = (
    <>
      <rect x={x0} y={y0} width={x1 - x0} height={Math.max(1, y1 - y0)} fill={COLORS[node.kind]} rx={2} />
      <text x={x1 + 6} y={(y0 + y1) / 2} dy="0.35em">
        <tspan className="paths-label">{clip(label)}</tspan>
        <tspan className="paths-count" dx={6}>
          {formatCount(node.count)}
        </tspan>
      </text>
      <title>{title}</title>
    </>
  );
  const detail = node.ref !== undefined && (node.kind === 'page' || node.kind === 'feature') ? consolePath(apiKey, node.kind === 'page' ? 'pages' : 'features', node.ref) : undefined;
  return (
    <g className={`paths-node paths-${node.kind}`} data-node={node.id}>
      {detail ? (
        <Link to={detail} aria-label={title}>
          {drawn}
        </Link>
      ) : (
        drawn
      )}
    </g>
  );
}

/** d3-sankey's layout of the answer: one column per level, the answer's order within a column. */
function layout(answer: PathsAnswer): { nodes: FlowNode[]; links: FlowLink[]; height: number } {
  const maxLevel = Math.max(0, ...answer.nodes.map((n) => n.level));
  const perLevel = new Map<number, number>();
  for (const n of answer.nodes) perLevel.set(n.level, (perLevel.get(n.level) ?? 0) + 1);
  const height = Math.max(MIN_HEIGHT, Math.max(0, ...perLevel.values()) * ROW);
  const column = (node: PathNode) => (answer.direction === 'next' ? node.level : maxLevel - node.level);
  const generator = sankey<PathNode, PathLink>()
    .nodeId((node) => node.id)
    .nodeAlign((node) => column(node))
    .nodeWidth(12)
    .nodePadding(14)
    .nodeSort(null)
    .linkSort(null)
    // Labels are drawn right of their bar: room for the last column's.
    .extent([[4, 8], [WIDTH - LABEL_ROOM, height - 8]]);
  const { nodes, links } = generator({
    nodes: answer.nodes.map((node) => ({ ...node })),
    links: answer.links.map((link) => ({ ...link, value: link.count })),
  });
  return { nodes, links, height };
}
