/** Who made a change (issue #33), in the words the Audit page and a guide's History tab show. */
import type { AuditActor } from '../shared/api/audit';

/** 'ann@example.com', 'ann@example.com (token “nightly”)', 'ann@example.com (designer)', 'the admin token'. */
export function actorInWords(actor: AuditActor): string {
  const who = actor.email ?? actor.userId;
  switch (actor.kind) {
    case 'admin token':
      return 'the admin token';
    case 'anonymous':
      return 'no one signed in';
    case 'api token':
      return `${who ?? 'a user'} (token “${actor.tokenName ?? '?'}”)`;
    case 'designer':
      return who ? `${who} (designer)` : 'a designer session of the admin token';
    default:
      return who ?? 'a user';
  }
}
