// The repository's files as the architecture checks read them: paths relative to the root.
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');

/** Every file under the given folders (relative to the root, recursively) whose name matches `name`. */
export function sourceFiles(dirs: string[], name = /\.tsx?$/): string[] {
  return dirs.flatMap((dir) =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = `${dir}/${e.name}`;
      return e.isDirectory() ? sourceFiles([rel], name) : name.test(e.name) ? [rel] : [];
    }),
  );
}

export const readSource = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');
