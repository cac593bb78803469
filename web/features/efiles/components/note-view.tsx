import { Anchor, Table } from '@mantine/core';
import type { MouseEvent } from 'react';

import type { NoteBlock, NoteBody, NoteInline } from '#shared/schemas/efile-note.ts';

import { pageAnchor } from '../note-model.ts';

/** Scrolls to a page of the file (a note or an item) and moves the focus there. */
export function goToPage(ref: string) {
  const target = document.getElementById(pageAnchor(ref));
  if (!target) return;
  target.scrollIntoView({ block: 'start' });
  target.focus({ preventScroll: true });
}

function Line({ line, onRef }: { line: NoteInline[]; onRef: (ref: string) => void }) {
  return (
    <>
      {line.map((run, i) => {
        if ('ref' in run) {
          const go = (event: MouseEvent) => {
            event.preventDefault();
            onRef(run.ref);
          };
          return (
            <Anchor key={i} href={`#${pageAnchor(run.ref)}`} onClick={go} fw={600} inherit>
              {run.ref}
            </Anchor>
          );
        }
        return run.b ? <strong key={i}>{run.text}</strong> : <span key={i}>{run.text}</span>;
      })}
    </>
  );
}

function Block({ block, onRef }: { block: NoteBlock; onRef: (ref: string) => void }) {
  if (block.t === 'p')
    return (
      <p style={{ margin: 0 }}>
        <Line line={block.c} onRef={onRef} />
      </p>
    );
  if (block.t === 'table')
    return (
      <Table withTableBorder withColumnBorders striped={false} fz="sm">
        <Table.Tbody>
          {block.rows.map((row, r) => (
            <Table.Tr key={r}>
              {row.map((cell, c) => (
                <Table.Td key={c}>
                  <Line line={cell} onRef={onRef} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  const List = block.t === 'ol' ? 'ol' : 'ul';
  return (
    <List style={{ margin: 0, paddingInlineStart: '1.5rem' }}>
      {block.items.map((item, i) => (
        <li key={i}>
          <Line line={item} onRef={onRef} />
        </li>
      ))}
    </List>
  );
}

/**
 * A note drawn from its structure (decision 107): numbered paragraphs (every block is one), bold, lists, tables, and
 * references C/n and N/n as links to that page of the file. Nothing is drawn as HTML: each run is React text.
 */
export function NoteView({ body, onRef = goToPage }: { body: NoteBody; onRef?: (ref: string) => void }) {
  return (
    <ol style={{ margin: 0, paddingInlineStart: '2rem', display: 'grid', gap: 'var(--mantine-spacing-xs)' }}>
      {body.blocks.map((block, i) => (
        <li key={i} style={{ overflowWrap: 'anywhere' }}>
          <Block block={block} onRef={onRef} />
        </li>
      ))}
    </ol>
  );
}
