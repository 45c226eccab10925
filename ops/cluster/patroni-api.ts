/** Reads of Patroni's REST API (GET /patroni, /cluster, /primary). */

export interface PatroniStatus {
  state: string;
  role: string;
  sync_standby?: boolean;
  timeline?: number;
  replication?: { application_name: string; state: string; sync_state: string }[];
  cluster_unlocked?: boolean;
}

export interface ClusterMember {
  name: string;
  role: 'leader' | 'sync_standby' | 'replica' | 'standby_leader';
  state: string;
  api_url: string;
  lag?: number | 'unknown';
}

async function get(api: string, path: string, timeoutMs = 1500): Promise<{ status: number; body: unknown }> {
  const res = await fetch(api + path, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

/** This node's own view (undefined when its REST API does not answer). */
export async function nodeStatus(api: string): Promise<PatroniStatus | undefined> {
  return get(api, '/patroni').then(
    (r) => r.body as PatroniStatus,
    () => undefined,
  );
}

/** Whether this node is the primary, as HAProxy's health check asks it. */
export async function isPrimary(api: string): Promise<boolean> {
  return get(api, '/primary').then(
    (r) => r.status === 200,
    () => false,
  );
}

/** The members as the DCS lists them (undefined when this node's REST API does not answer). */
export async function clusterMembers(api: string): Promise<ClusterMember[] | undefined> {
  return get(api, '/cluster').then(
    (r) => (r.body as { members: ClusterMember[] }).members,
    () => undefined,
  );
}
