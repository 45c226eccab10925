// npm run cluster: etcd, three Patroni nodes and HAProxy on loopback ports under .cluster/ (docs/operations.md).
// Prints one JSON line once the cluster takes writes, stays in the foreground, stops everything on SIGINT/SIGTERM.
//   --dir <folder>   (default .cluster)   --base-port <n> (default 15400)   --nodes <n>   --async   --archive
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LocalCluster } from '../ops/cluster/local-cluster';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '.cluster' },
    'base-port': { type: 'string', default: '15400' },
    nodes: { type: 'string', default: '3' },
    async: { type: 'boolean', default: false },
    archive: { type: 'boolean', default: false },
  },
});

async function main() {
  // Progress goes to stderr: stdout carries only the JSON line.
  const cluster = await LocalCluster.start({
    dir: path.resolve(values.dir!),
    basePort: Number(values['base-port']),
    nodes: Number(values.nodes),
    synchronous: !values.async,
    archive: values.archive,
    log: (line) => process.stderr.write(`cluster: ${line}\n`),
  });
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    cluster.stop().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`cluster: stop failed: ${error?.stack ?? error}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  const nodes = cluster.nodes.map((n) => ({ name: n.name, api: n.api, data_dir: n.dataDir }));
  process.stdout.write(JSON.stringify({ database_url: cluster.databaseUrl, nodes }) + '\n');
  // Stays up until a signal. `npm run` puts a shell between npm and this process, and that shell dies
  // of a SIGTERM sent to npm without passing it on: an orphaned CLI stops the cluster all the same.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown();
  }, 1000);
}

main().catch((error) => {
  process.stderr.write(`The cluster could not start:\n${error?.stack ?? error}\n`);
  process.exit(1);
});
