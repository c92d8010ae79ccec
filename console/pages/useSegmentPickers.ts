/**
 * What the Segments screens pick from and name (issue #35): the app's features, pages and guides (a behaviour
 * condition's target), and its segments without their counts (the guide editor's audience). Cached with the
 * Features, Pages and Guides screens' own queries.
 */
import { useQuery } from '@tanstack/react-query';
import { api, appPath } from '../api';
import type { SegmentNames } from '../segmentWords';
import type { Feature, GuideRow, Page, Segment } from '../types';
import { useDefinitions } from './RuleActions';

/** The app's features, pages and guides, and their names by id. */
export function useSegmentPickers(apiKey: string) {
  const features = useDefinitions<Feature>(apiKey, 'features');
  const pages = useDefinitions<Page>(apiKey, 'pages');
  const guides = useQuery({ queryKey: ['guides', apiKey, 'names'], queryFn: () => api<GuideRow[]>(appPath(apiKey, '/guides')) });
  const byId = <T extends { id: string; name: string }>(list: T[] | undefined) => new Map((list ?? []).map((item) => [item.id, item.name]));
  const featureNames = byId(features.data);
  const pageNames = byId(pages.data);
  const guideNames = byId(guides.data);
  const names: SegmentNames = { feature: (id) => featureNames.get(id), page: (id) => pageNames.get(id), guide: (id) => guideNames.get(id) };
  return { features: features.data ?? [], pages: pages.data ?? [], guides: guides.data ?? [], names };
}

/** The app's segments, definitions only (`?counts=false`: no member is counted), for a picker. */
export function useSegmentChoices(apiKey: string, enabled = true) {
  return useQuery({ queryKey: ['segments', apiKey, 'choices'], queryFn: () => api<Segment[]>(appPath(apiKey, '/segments?counts=false')), enabled });
}
