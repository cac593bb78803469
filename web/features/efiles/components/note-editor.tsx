import { Button, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { type NoteBody, noteBody } from '#shared/schemas/efile-note.ts';

import { useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { PanelError } from '#web/components/panel-error.tsx';
import { translateMessage } from '#web/i18n/index.ts';

import { BLOCK_KINDS, type BlockKind, type EditorBlock, fromBody, newBlock, toBody } from '../note-model.ts';
import { NoteView } from './note-view.tsx';

interface NoteEditorProps {
  /** The draft being changed; a new note when absent. */
  initial?: NoteBody;
  /** The pages of the file a reference may name (N/1…, C/1…). */
  pages: string[];
  onSave: (body: NoteBody) => void;
  onCancel: () => void;
  pending?: boolean;
  /** A refusal of the server, already worded. */
  error?: string;
}

/** Wraps the selected text of a textarea in `**…**` (bold), or inserts `text` at the caret. */
function edit(area: HTMLTextAreaElement | null, value: string, wrap: 'bold' | { insert: string }) {
  const start = area?.selectionStart ?? value.length;
  const end = area?.selectionEnd ?? value.length;
  if (wrap === 'bold') {
    const chosen = value.slice(start, end) || '';
    return `${value.slice(0, start)}**${chosen}**${value.slice(end)}`;
  }
  const before = value.slice(0, start);
  const gap = before && !/\s$/.test(before) ? ' ' : '';
  return `${before}${gap}${wrap.insert}${value.slice(end)}`;
}

function BlockField({
  block,
  index,
  pages,
  onChange,
  onRemove,
}: {
  block: EditorBlock;
  index: number;
  pages: string[];
  onChange: (b: EditorBlock) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation('efiles');
  const area = useRef<HTMLTextAreaElement>(null);
  const kindList = useInPlaceCombobox();
  const refList = useInPlaceCombobox();
  const n = index + 1;
  return (
    <Paper withBorder p="sm" radius="sm">
      <Stack gap="xs">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label={t('editor.kind', { n })}
            data={BLOCK_KINDS.map((k) => ({ value: k, label: t(`editor.kinds.${k}`) }))}
            value={block.kind}
            onChange={(v) => v && onChange({ ...block, kind: v as BlockKind })}
            allowDeselect={false}
            w={200}
            {...kindList}
          />
          <Button
            variant="default"
            fw={700}
            onClick={() => onChange({ ...block, text: edit(area.current, block.text, 'bold') })}
            aria-label={t('editor.boldLabel', { n })}
          >
            {t('editor.bold')}
          </Button>
          {pages.length > 0 && (
            <Select
              label={t('editor.refer', { n })}
              placeholder={t('editor.referPlaceholder')}
              data={pages}
              value={null}
              onChange={(v) => v && onChange({ ...block, text: edit(area.current, block.text, { insert: v }) })}
              w={170}
              {...refList}
            />
          )}
          {onRemove && (
            <Button variant="subtle" color="red.9" onClick={onRemove} aria-label={t('editor.removeLabel', { n })}>
              {t('editor.remove')}
            </Button>
          )}
        </Group>
        <Textarea
          ref={area}
          label={t('editor.text', { n })}
          description={t(`editor.hints.${block.kind}`)}
          value={block.text}
          onChange={(e) => onChange({ ...block, text: e.currentTarget.value })}
          autosize
          minRows={block.kind === 'p' ? 3 : 2}
        />
      </Stack>
    </Paper>
  );
}

/**
 * The note editor (decision 112): paragraphs, bulleted and numbered lists and tables as blocks of plain text, bold by
 * `**…**` (the Bold button wraps the selection), references C/n and N/n chosen from the file's pages or typed. A
 * preview draws the note as it will be kept; nothing is HTML. Checked with the shared schema before it is sent.
 */
export function NoteEditor({ initial, pages, onSave, onCancel, pending, error }: NoteEditorProps) {
  const { t } = useTranslation('efiles');
  const [blocks, setBlocks] = useState<EditorBlock[]>(() =>
    initial && initial.blocks.length ? fromBody(initial) : [newBlock()],
  );
  const [problem, setProblem] = useState('');
  const previewId = useId();
  const body = toBody(blocks);
  const update = (i: number, b: EditorBlock) => setBlocks((all) => all.map((x, j) => (j === i ? b : x)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = noteBody.safeParse(body);
    if (!parsed.success) {
      setProblem(translateMessage(parsed.error.issues[0]?.message ?? ''));
      return;
    }
    setProblem('');
    onSave(body);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('editor.formLabel')}>
      <Stack gap="sm">
        {(problem || error) && <PanelError>{problem || error}</PanelError>}
        {blocks.map((block, i) => (
          <BlockField
            key={block.id}
            block={block}
            index={i}
            pages={pages}
            onChange={(b) => update(i, b)}
            onRemove={blocks.length > 1 ? () => setBlocks((all) => all.filter((_, j) => j !== i)) : undefined}
          />
        ))}
        <Group gap="xs">
          <Button variant="light" onClick={() => setBlocks((all) => [...all, newBlock()])}>
            {t('editor.addBlock')}
          </Button>
        </Group>
        <section aria-labelledby={previewId}>
          <Text fw={600} size="sm" id={previewId}>
            {t('editor.preview')}
          </Text>
          {body.blocks.length ? (
            <NoteView body={body} onRef={() => undefined} />
          ) : (
            <Text size="sm" c="gray.8">
              {t('editor.previewEmpty')}
            </Text>
          )}
        </section>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {t('editor.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
