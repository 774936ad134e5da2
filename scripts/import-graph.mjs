// The import graph of src/: circles among files and among folders (type imports and dynamic
// import() count: a type-only circle still ties the modules' meaning together). Used by
// test/unit/import-cycles.test.ts (part of `npm test`); run alone it prints what it finds:
//   node scripts/import-graph.mjs        exit 1 when any circle is found
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every .ts file under `dir` (declaration files aside), absolute paths. */
function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

/** Strongly connected components of more than one node (Tarjan, iterative over a Map graph). */
function circles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, [...graph.get(start)], 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      if (frame[2] < next.length) {
        const target = next[frame[2]++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, [...graph.get(target)], 0]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found;
}

/**
 * File and folder circles of the TypeScript sources under `root` (relative paths; a folder is
 * a file's directory, `.` for root itself). Imports are read by the compiler's own pre-processor.
 */
export function importCircles(root) {
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '');
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => known.has(candidate));
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  const rel = (file) => path.relative(root, file);
  const folderOf = (file) => path.relative(root, path.dirname(file)) || '.';
  const folders = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) if (folderOf(target) !== from) folders.get(from).add(folderOf(target));
  }
  for (const targets of folders.values()) for (const target of targets) if (!folders.has(target)) folders.set(target, new Set());
  return {
    files: circles(graph).map((component) => component.map(rel)),
    folders: circles(folders),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, folders } = importCircles(path.resolve(process.argv[2] ?? 'src'));
  for (const circle of files) console.log(`file circle (${circle.length}): ${circle.join(', ')}`);
  for (const circle of folders) console.log(`folder circle: ${circle.join(', ')}`);
  console.log(`${files.length} file circle(s), ${folders.length} folder circle(s)`);
  process.exit(files.length + folders.length > 0 ? 1 : 0);
}
