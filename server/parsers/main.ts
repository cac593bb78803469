import { imageThumbnail, loadFileParsers, pdfPreview, webImage } from './images-and-pdfs.ts';
import { extractText, loadTextParsers } from './text.ts';

/**
 * The node program the sandbox runs for node-based parsers (decisions 091 and 108, server/lib/sandbox-node.ts),
 * started before its file arrives: `node parsers.mjs <group>` loads the packages of its group of tasks ('files':
 * sharp and pdf-lib; 'text': officeparser), then reads ONE line on its standard input, `{ task, input, output,
 * options }`, does that one task on that one file, writes what it makes into the output folder, prints one JSON line,
 * its answer, and exits. It never reads a second job. It sees nothing but its input, its output folder, node_modules
 * and the system's folders, and no network.
 */
const [group] = process.argv.slice(2);
const preload: Record<string, () => Promise<unknown>> = { files: loadFileParsers, text: loadTextParsers };

interface Job {
  task: string;
  input: string;
  output: string;
  options: Record<string, unknown>;
}

const tasks: Record<string, (j: Job) => Promise<object>> = {
  pdf: (j) => pdfPreview(j.input, j.output, j.options as Parameters<typeof pdfPreview>[2]),
  image: (j) => imageThumbnail(j.input, j.output, j.options as Parameters<typeof imageThumbnail>[2]),
  'web-image': (j) => webImage(j.input, j.output, j.options as Parameters<typeof webImage>[2]),
  text: (j) => extractText(j.input, j.output, j.options as Parameters<typeof extractText>[2]),
};

/** Its standard input whole: the server sends one line, then closes it (or closes it unsent: nothing to do). */
async function readJob(): Promise<Job | null> {
  let text = '';
  for await (const chunk of process.stdin) text += (chunk as Buffer).toString();
  return text.trim() ? (JSON.parse(text) as Job) : null;
}

// pdf.js and officeparser print warnings about odd files: never mixed into the answer, which is the last line.
console.log = console.warn = console.info = () => {};
await preload[group ?? '']?.();
const job = await readJob();
if (job) {
  const run = tasks[job.task];
  if (!run) {
    process.stderr.write(`unknown task ${job.task}\n`);
    process.exit(2);
  }
  const answer = await run(job);
  process.stdout.write(`\n${JSON.stringify(answer)}\n`);
}
// Done: what it made is written and its answer sent (a pipe's writes are synchronous on Linux). It exits now rather
// than when libvips' threads and Node's handles wind down on their own, which added tens of ms to every task.
process.exit(0);
