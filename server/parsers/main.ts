import { imageThumbnail, pdfPreview, webImage } from './images-and-pdfs.ts';
import { extractText } from './text.ts';

/**
 * The node program the sandbox runs for node-based parsers (decision 091, server/lib/sandbox-node.ts): one task on one
 * file, `node parsers.mjs <task> <input> <output folder> <options as JSON>`. It writes what it makes into the output
 * folder and prints one JSON line, its answer. It sees nothing but its input, its output folder, node_modules and
 * the system's folders, and no network.
 */
const [task, input, output, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson ?? '{}') as Record<string, unknown>;

const tasks: Record<string, () => Promise<object>> = {
  pdf: () => pdfPreview(input!, output!, options as Parameters<typeof pdfPreview>[2]),
  image: () => imageThumbnail(input!, output!, options as Parameters<typeof imageThumbnail>[2]),
  'web-image': () => webImage(input!, output!, options as Parameters<typeof webImage>[2]),
  text: () => extractText(input!, output!, options as Parameters<typeof extractText>[2]),
};

const run = tasks[task ?? ''];
if (!run) {
  process.stderr.write(`unknown task ${task}\n`);
  process.exit(2);
}
// pdf.js and officeparser print warnings about odd files: never mixed into the answer, which is the last line.
console.log = console.warn = console.info = () => {};
const answer = await run();
process.stdout.write(`\n${JSON.stringify(answer)}\n`);
