import { Alert, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { LetterJson } from '#shared/schemas/letter.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useDeleteLetter, useLetterPages } from '../api.ts';
import { MarkLetterDialog } from './dak-dialogs.tsx';
import { Whereabouts } from './dak-parts.tsx';
import { LetterForm, type LetterStatus } from './letter-form.tsx';
import { ClassificationBadge } from './letter-parts.tsx';

function ManagerCard({
  letter,
  selected,
  onSelect,
  onDelete,
  onMark,
}: {
  letter: LetterJson;
  selected: boolean;
  onSelect: () => void;
  onDelete: () => void;
  onMark: () => void;
}) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('letters');
  const subject = letter.letterSub || t('noSubject');
  return (
    <Card
      component="li"
      withBorder
      radius="md"
      padding="md"
      bg={selected ? 'blue.0' : undefined}
      style={{
        cursor: letter.canEdit ? 'pointer' : undefined,
        borderColor: selected ? 'var(--mantine-color-blue-7)' : undefined,
      }}
      onClick={letter.canEdit ? onSelect : undefined}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={700} lineClamp={2}>
            {subject}
          </Text>
          <ClassificationBadge classification={letter.classification} />
        </Group>
        <Text size="sm">{t('manager.by', { name: letter.uploadedBy?.name ?? t('unknown') })}</Text>
        <Text size="sm" c="gray.8">
          {formatDate(letter.letterDate)}
        </Text>
        <Whereabouts dak={letter.dak} />
        {letter.frozen && (
          <Text size="xs" c="gray.8">
            {t('dak.frozen')}
          </Text>
        )}
        {(letter.canEdit || letter.canMark) && (
          <Group justify="flex-end" gap="xs">
            {letter.canMark && (
              <Button
                size="xs"
                variant="light"
                onClick={(event) => {
                  event.stopPropagation();
                  onMark();
                }}
                aria-label={t('dak.mark.label', { letterId: letter.letterId })}
              >
                {t('dak.mark.button')}
              </Button>
            )}
            {letter.canEdit && (
              <Button
                size="xs"
                variant="default"
                onClick={(event) => {
                  event.stopPropagation();
                  onSelect();
                }}
                aria-label={t('manager.editLabel', { subject })}
                aria-pressed={selected}
              >
                {t('manager.edit')}
              </Button>
            )}
            {letter.canEdit && (
              <Button
                size="xs"
                color="red.9"
                variant="outline"
                onClick={(event) => {
                  event.stopPropagation();
                  onDelete();
                }}
                aria-label={t('manager.deleteLabel', { subject })}
              >
                {t('manager.delete')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/**
 * Letters Manager (spec §2 /dac): a card grid of letters; a click loads one into the form below for editing, else
 * the form uploads a new one. One yellow banner says how the last action went (spec §8). `mine` lists only the
 * signed-in person's letters (everyone but an admin, who may edit every letter).
 */
export function LettersManager({ mine }: { mine: boolean }) {
  const { t } = useTranslation('letters');
  const pages = useLetterPages('', mine);
  const remove = useDeleteLetter();
  const [selected, setSelected] = useState<LetterJson | null>(null);
  const [status, setStatus] = useState<LetterStatus | null>(null);
  const [toMark, setToMark] = useState<LetterJson | null>(null);
  // A new key starts the form afresh: after an upload, a save, a cancel, or when another letter is chosen.
  const [formRound, setFormRound] = useState(0);
  const formRef = useRef<HTMLDivElement>(null);
  const bannerRef = useRef<HTMLDivElement>(null);
  const letters = pages.data?.pages.flatMap((p) => p.letters) ?? [];

  const say = (next: LetterStatus) => {
    setStatus(next);
    requestAnimationFrame(() => bannerRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  };
  const select = (letter: LetterJson) => {
    setSelected(letter);
    setStatus(null);
    requestAnimationFrame(() => formRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  };
  const deletion = useConfirmedDelete<LetterJson>(remove, {
    deleted: (letter) => {
      if (selected?._id === letter._id) {
        setSelected(null); // deleting the letter being edited returns to upload mode with an empty form
        setFormRound((n) => n + 1);
      }
      say({ text: t('banner.deleted') });
    },
    failed: (err) => say({ text: t('banner.deleteFailed'), detail: serverMessage(err) }),
  });

  const banner =
    status ?? (pages.isError ? { text: t('banner.fetchFailed'), detail: serverMessage(pages.error) } : null);

  return (
    <Stack gap="lg">
      <section aria-labelledby="manager-letters-heading">
        <Title order={2} size="h3" mb="sm" id="manager-letters-heading">
          {mine ? t('manager.myLetters') : t('manager.allLetters')}
        </Title>
        {pages.isPending ? (
          <Center py="lg">
            <Loader role="status" aria-label={t('list.loading')} />
          </Center>
        ) : letters.length === 0 && !pages.isError ? (
          <EmptyState>{t('manager.empty')}</EmptyState>
        ) : (
          <SimpleGrid
            component="ul"
            cols={{ base: 1, sm: 2, lg: 3 }}
            spacing="md"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
          >
            {letters.map((letter) => (
              <ManagerCard
                key={letter._id}
                letter={letter}
                selected={selected?._id === letter._id}
                onSelect={() => select(letter)}
                onDelete={() => deletion.ask(letter)}
                onMark={() => setToMark(letter)}
              />
            ))}
          </SimpleGrid>
        )}
        {pages.hasNextPage && (
          <Group justify="center" mt="md">
            <Button variant="default" onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
              {t('list.loadMore')}
            </Button>
          </Group>
        )}
      </section>

      {/* Scrolled to after an action; the margin keeps it clear of the sticky header. */}
      <div ref={bannerRef} style={{ scrollMarginTop: '11rem' }}>
        {banner && (
          <Alert
            color="yellow"
            variant="filled"
            radius="md"
            styles={{ message: { color: 'var(--mantine-color-dark-9)' } }}
          >
            <Text fw={700} c="dark.9">
              {banner.text}
            </Text>
            {banner.detail && (
              <Text size="sm" c="dark.9">
                {banner.detail}
              </Text>
            )}
          </Alert>
        )}
      </div>

      <div ref={formRef} style={{ scrollMarginTop: '11rem' }}>
        <LetterForm
          key={`${selected?._id ?? 'new'}-${formRound}`}
          letter={selected}
          onStatus={say}
          onDone={() => {
            setSelected(null);
            setFormRound((n) => n + 1);
          }}
        />
      </div>

      {toMark && <MarkLetterDialog letter={toMark} onClose={() => setToMark(null)} />}
      <ConfirmDelete {...deletion.dialog} message={t('manager.confirmDelete')} />
    </Stack>
  );
}
