/**
 * Who is signed in (GET /api/me, issue #33), read once by the Layout before any view: the views ask `useCan` what
 * the role may do and leave out what it may not, rather than showing a button the server would refuse.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { Me, Role } from './types';

const ORDER: readonly Role[] = ['viewer', 'editor', 'admin'];

/** Whether `held` may do what needs `needed` (docs/users-and-roles.md: each role may what the one before may). */
export const hasRole = (held: Role, needed: Role): boolean => ORDER.indexOf(held) >= ORDER.indexOf(needed);

/** The /api/me query; the Layout waits for it, so inside a view its data is there. */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => api<Me>('/api/me'), staleTime: Infinity });
}

/** Whether the signed-in role may do what needs `needed`; false while /api/me is unknown. */
export function useCan(needed: Role): boolean {
  const me = useMe().data;
  return me !== undefined && hasRole(me.role, needed);
}
