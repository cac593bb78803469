import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { type SitePageKey, type UpdateSitePageInput, updateSitePageInput } from '#shared/schemas/site.ts';

import { PanelLoader } from '#web/components/panel-loader.tsx';
import { currentLanguage } from '#web/i18n/index.ts';
import { applyServerError, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useSaveSitePage, useSitePage } from '../api.ts';

/** Plain text with blank lines between paragraphs, as paragraphs. */
export function Paragraphs({ text }: { text: string }) {
  return (
    <Stack gap="sm">
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p, i) => (
          <Text key={i} style={{ whiteSpace: 'pre-line' }}>
            {p}
          </Text>
        ))}
    </Stack>
  );
}

function EditSitePage({
  pageKey,
  initial,
  onDone,
}: {
  pageKey: SitePageKey;
  initial: UpdateSitePageInput;
  onDone: () => void;
}) {
  const { t } = useTranslation('site');
  const save = useSaveSitePage(pageKey);
  const form = useForm<UpdateSitePageInput>({
    mode: 'controlled',
    initialValues: initial,
    validate: zodValidate(updateSitePageInput),
  });
  const { error } = translatedErrors(form);
  const onSubmit = (values: UpdateSitePageInput) =>
    save.mutate(values, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t('pages.saved') });
        onDone();
      },
      onError: (err) => {
        if (applyServerError(form, err)) return;
        notifications.show({ color: 'red', message: t('pages.saveFailed') });
      },
    });
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <Textarea
          label={t('pages.english')}
          description={t('pages.paragraphHint')}
          autosize
          minRows={8}
          maxRows={24}
          required
          {...form.getInputProps('en')}
          error={error('en')}
        />
        <Textarea
          label={t('pages.hindi')}
          description={t('pages.paragraphHint')}
          autosize
          minRows={8}
          maxRows={24}
          required
          lang="hi"
          {...form.getInputProps('hi')}
          error={error('hi')}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('pages.save')}
          </Button>
          <Button variant="default" onClick={onDone}>
            {t('pages.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Terms of use or Privacy policy: the text in the current language with its last update, and for
 * an admin an editor of both languages (decision 019).
 */
export function SiteDocument({ pageKey, canEdit }: { pageKey: SitePageKey; canEdit: boolean }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('site');
  const page = useSitePage(pageKey);
  const [editing, setEditing] = useState(false);
  if (page.isPending) return <PanelLoader />;
  if (page.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        <Text c="gray.9">{t('pages.loadFailed')}</Text>
      </Alert>
    );
  const data = page.data;
  if (editing)
    return <EditSitePage pageKey={pageKey} initial={{ en: data.en, hi: data.hi }} onDone={() => setEditing(false)} />;
  return (
    <Stack gap="md">
      <Text size="sm" c="gray.8">
        {data.updatedAt ? t('lastUpdated', { date: formatDate(data.updatedAt) }) : t('pages.defaultText')}
      </Text>
      <div lang={currentLanguage()}>
        <Paragraphs text={currentLanguage() === 'hi' ? data.hi : data.en} />
      </div>
      {canEdit && (
        <Group>
          <Button variant="light" onClick={() => setEditing(true)}>
            {t('pages.edit')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
