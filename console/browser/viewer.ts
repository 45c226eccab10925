// Who is signed in to the console, as the pages and the browser may see it: never the key itself.
import { holds, type ActionPermission, type CurrentKey } from '../../lib/contract';

export interface Viewer {
  merchantName: string;
  /** A test-mode key (sk_test_ or rk_test_): the console shows its banner. */
  testMode: boolean;
  /** Signed in with a sandbox's key: the console says so on every page (absent in sessions sealed before sandboxes). */
  sandbox?: boolean;
  key: Pick<CurrentKey, 'id' | 'type' | 'name' | 'permissions'>;
}

/** What the console shows follows what the key may do; the API refuses the rest anyway. */
export const viewerCan = (viewer: Viewer, needed: ActionPermission) => holds(viewer.key.permissions, needed);

/** "Restricted key: Support — Ana" or "Secret key", for the header. */
export const keyLabel = (viewer: Viewer) => (viewer.key.type === 'restricted' ? `Restricted key: ${viewer.key.name}` : 'Secret key');
