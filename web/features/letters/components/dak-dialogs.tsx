import { useState } from 'react';
import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { DAK_PRIORITIES } from '#shared/constants.ts';
import { closeLetterInput, markLetterInput, returnLetterInput, type DakPriority } from '#shared/schemas/letter.ts';
import type { LetterJson } from '#shared/schemas/letter.ts';
import { DateField } from '#web/components/date-field.tsx';
import { translateMessage } from '#web/i18n/index.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useCloseLetter, useMarkLetter, useOfficers, useReturnLetter } from '../api.ts';

type Errors = Record<string, string>;

/** The server's refusal on its field, else as a banner; in the current language when the letters namespace knows it. */
function useServerError() {
  const { t } = useTranslation('letters');
  return (err: unknown, setErrors: (e: Errors) => void, setBanner: (m: string) => void) => {
    const message = err instanceof ApiError && err.message ? translateMessage(err.message, 'letters') : t('dak.failed');
    if (err instanceof ApiError && err.field) setErrors({ [err.field.split('.')[0]!]: message });
    else setBanner(message);
  };
}

/** The first problem of each field, as the shared schema words it (the server checks the same rules). */
function check<T>(
  schema: {
    safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: T,
) {
  const result = schema.safeParse(value);
  const errors: Errors = {};
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0] ?? '');
    errors[key] ??= translateMessage(issue.message, 'letters');
  }
  return errors;
}

function Banner({ text }: { text: string }) {
  if (!text) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      <Text c="gray.9">{text}</Text>
    </Alert>
  );
}

/**
 * Mark a letter to one or more officers (issue 17 item 1): officers (associate directors are named with their
 * group), remarks, an optional due date and a priority. A Confidential or Secret letter offers only those cleared.
 */
export function MarkLetterDialog({ letter, onClose }: { letter: LetterJson; onClose: () => void }) {
  const { t } = useTranslation('letters');
  const officers = useOfficers(true);
  const mark = useMarkLetter();
  const showError = useServerError();
  const [to, setTo] = useState<string[]>([]);
  const [remarks, setRemarks] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [priority, setPriority] = useState<DakPriority>('Normal');
  const [errors, setErrors] = useState<Errors>({});
  const [banner, setBanner] = useState('');
  const classified = letter.classification !== 'Normal';
  const options = (officers.data ?? [])
    .slice()
    .sort((a, b) => Number(b.role === 'associate_director') - Number(a.role === 'associate_director'))
    .map((o) => ({
      value: o._id,
      label: [
        o.name,
        o.role === 'associate_director'
          ? t('dak.mark.adOf', { group: o.group?.name ?? t('unknown') })
          : [o.designation, o.group?.name].filter(Boolean).join(', '),
      ]
        .filter(Boolean)
        .join(' — '),
      disabled: classified && !o.cleared,
    }));

  const submit = () => {
    const input = { to, remarks, dueDate: dueDate || null, priority };
    const found = check(markLetterInput, input);
    setErrors(found);
    setBanner('');
    if (Object.keys(found).length) return;
    mark.mutate(
      { id: letter._id, input },
      {
        onSuccess: (created) => {
          notifications.show({
            color: 'green',
            message: t('dak.mark.done', { count: created.length, letterId: letter.letterId }),
          });
          onClose();
        },
        onError: (err) => showError(err, setErrors, setBanner),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('dak.mark.title', { letterId: letter.letterId })} size="lg">
      <Stack gap="sm">
        <Text size="sm" c="gray.8">
          {letter.letterSub}
        </Text>
        {classified && (
          <Text size="sm" c="gray.9">
            {t('dak.mark.classifiedHint', { classification: t(`classification.${letter.classification}`) })}
          </Text>
        )}
        <Banner text={banner} />
        <MultiSelect
          label={t('dak.mark.to')}
          description={t('dak.mark.toHint')}
          placeholder={officers.isPending ? t('dak.mark.loadingOfficers') : t('dak.mark.toPlaceholder')}
          data={options}
          value={to}
          onChange={(v) => {
            setTo(v);
            setErrors(({ to: _, ...rest }) => rest);
          }}
          searchable
          clearable
          nothingFoundMessage={t('dak.mark.noOfficer')}
          error={errors.to}
          required
          comboboxProps={{ withinPortal: true }}
        />
        <Textarea
          label={t('dak.mark.remarks')}
          value={remarks}
          onChange={(e) => setRemarks(e.currentTarget.value)}
          autosize
          minRows={2}
          error={errors.remarks}
        />
        <Group grow align="flex-start">
          <DateField
            label={t('dak.mark.dueDate')}
            value={dueDate}
            onChange={(v) => {
              setDueDate(v);
              setErrors(({ dueDate: _, ...rest }) => rest);
            }}
            minDate={new Date()}
            error={errors.dueDate}
          />
          <Select
            label={t('dak.mark.priority')}
            data={DAK_PRIORITIES.map((p) => ({ value: p, label: t(`dak.priority.${p}`) }))}
            value={priority}
            onChange={(v) => setPriority((v as DakPriority) ?? 'Normal')}
            allowDeselect={false}
            error={errors.priority}
          />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button onClick={submit} loading={mark.isPending}>
            {t('dak.mark.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Close a held letter with its disposal: action taken, file number, reply reference (issue 17 item 3). */
export function CloseLetterDialog({ letter, onClose }: { letter: LetterJson; onClose: () => void }) {
  const { t } = useTranslation('letters');
  const close = useCloseLetter();
  const showError = useServerError();
  const [disposal, setDisposal] = useState('');
  const [fileNo, setFileNo] = useState('');
  const [replyRef, setReplyRef] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [banner, setBanner] = useState('');
  const submit = () => {
    const input = { disposal, fileNo: fileNo || undefined, replyRef: replyRef || undefined };
    const found = check(closeLetterInput, input);
    setErrors(found);
    setBanner('');
    if (Object.keys(found).length) return;
    close.mutate(
      { id: letter._id, input },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('dak.close.done', { letterId: letter.letterId }) });
          onClose();
        },
        onError: (err) => showError(err, setErrors, setBanner),
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('dak.close.title', { letterId: letter.letterId })} size="lg">
      <Stack gap="sm">
        <Text size="sm" c="gray.8">
          {letter.letterSub}
        </Text>
        <Banner text={banner} />
        <Textarea
          label={t('dak.close.disposal')}
          description={t('dak.close.disposalHint')}
          value={disposal}
          onChange={(e) => {
            setDisposal(e.currentTarget.value);
            setErrors(({ disposal: _, ...rest }) => rest);
          }}
          autosize
          minRows={3}
          required
          error={errors.disposal}
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('dak.close.fileNo')}
            value={fileNo}
            onChange={(e) => setFileNo(e.currentTarget.value)}
            error={errors.fileNo}
          />
          <TextInput
            label={t('dak.close.replyRef')}
            value={replyRef}
            onChange={(e) => setReplyRef(e.currentTarget.value)}
            error={errors.replyRef}
          />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button onClick={submit} loading={close.isPending}>
            {t('dak.close.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Send a held letter back to whoever marked it, saying why (issue 17 item 3). */
export function ReturnLetterDialog({
  letter,
  to,
  onClose,
}: {
  letter: LetterJson;
  to: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('letters');
  const sendBack = useReturnLetter();
  const showError = useServerError();
  const [remarks, setRemarks] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [banner, setBanner] = useState('');
  const submit = () => {
    const found = check(returnLetterInput, { remarks });
    setErrors(found);
    setBanner('');
    if (Object.keys(found).length) return;
    sendBack.mutate(
      { id: letter._id, input: { remarks } },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('dak.return.done', { letterId: letter.letterId }) });
          onClose();
        },
        onError: (err) => showError(err, setErrors, setBanner),
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('dak.return.title', { letterId: letter.letterId })} size="lg">
      <Stack gap="sm">
        <Text size="sm" c="gray.8">
          {to ? t('dak.return.to', { name: to }) : letter.letterSub}
        </Text>
        <Banner text={banner} />
        <Textarea
          label={t('dak.return.remarks')}
          value={remarks}
          onChange={(e) => {
            setRemarks(e.currentTarget.value);
            setErrors(({ remarks: _, ...rest }) => rest);
          }}
          autosize
          minRows={3}
          required
          error={errors.remarks}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button onClick={submit} loading={sendBack.isPending}>
            {t('dak.return.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
