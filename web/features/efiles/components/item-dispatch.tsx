import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { todayInIndia } from '#shared/format.ts';
import { DISPATCH_MODES, dispatchInput, type DispatchJson, type DispatchModeName } from '#shared/schemas/dispatch.ts';
import type { EfileItemJson, EfileJson } from '#shared/schemas/efile.ts';

import { DateField } from '#web/components/date-field.tsx';
import { FormActions } from '#web/components/form-actions.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { SignaturePanel } from '#web/components/signature-panel.tsx';
import { api } from '#web/lib/api-client.ts';
import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

/** GET /api/efiles/{id}/dispatches: the file's dispatched letters (decision 120), by item. */
export const useFileDispatches = (efileId: string) =>
  useQuery({
    queryKey: ['efiles', 'dispatches', efileId],
    queryFn: ({ signal }) => api.get<DispatchJson[]>(`/api/efiles/${efileId}/dispatches`, { signal }),
  });

interface Values {
  date: string;
  mode: DispatchModeName;
  recipients: { name: string; address: string; email: string }[];
}
const blank = { name: '', address: '', email: '' };

function DispatchDialog({ file, item, onClose }: { file: EfileJson; item: EfileItemJson; onClose: () => void }) {
  const { t } = useTranslation('dispatch');
  const [banner, setBanner] = useState('');
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: (values: Values) =>
      api.post<DispatchJson>(`/api/efiles/${file._id}/items/${item._id}/dispatch`, values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['efiles', 'dispatches', file._id] }),
  });
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { date: todayInIndia(), mode: 'post', recipients: [blank] },
    validate: zodValidate<Values>(dispatchInput),
  });
  const { field } = translatedErrors(form);
  const submit = form.onSubmit((values) => {
    setBanner('');
    send.mutate(values, {
      onSuccess: (d) => {
        notifications.show({ color: 'green', message: t('dispatch.done', { number: d.outwardNumber }) });
        onClose();
      },
      onError: (err) => {
        if (!applyServerError(form, err)) setBanner(serverMessage(err, t('dispatch.failed')));
      },
    });
  });
  const email = form.values.mode === 'email';
  return (
    <Modal opened onClose={onClose} title={t('dispatch.title', { ref: item.ref })} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {banner && <PanelError>{banner}</PanelError>}
          <DateField label={t('dispatch.date')} {...field('date')} maxDate={new Date()} required />
          <Select
            label={t('dispatch.mode')}
            data={DISPATCH_MODES.map((m) => ({ value: m, label: t(`modes.${m}`) }))}
            {...field('mode')}
            allowDeselect={false}
            required
          />
          {form.values.recipients.map((_, i) => (
            <Stack key={i} gap={4} component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
              <Text component="legend" fw={600} size="sm" p={0}>
                {t('dispatch.recipient', { n: i + 1 })}
              </Text>
              <TextInput label={t('dispatch.name')} {...field(`recipients.${i}.name`)} required />
              {email ? (
                <TextInput label={t('dispatch.email')} type="email" {...field(`recipients.${i}.email`)} required />
              ) : (
                <TextInput label={t('dispatch.address')} {...field(`recipients.${i}.address`)} required />
              )}
              {form.values.recipients.length > 1 && (
                <Group>
                  <Button variant="subtle" color="red.9" size="xs" onClick={() => form.removeListItem('recipients', i)}>
                    {t('dispatch.removeRecipient', { n: i + 1 })}
                  </Button>
                </Group>
              )}
            </Stack>
          ))}
          <Group>
            <Button variant="light" onClick={() => form.insertListItem('recipients', { ...blank })}>
              {t('dispatch.addRecipient')}
            </Button>
          </Group>
          <FormActions
            onCancel={onClose}
            cancelLabel={t('dispatch.cancel')}
            submitLabel={t('dispatch.submit')}
            pending={send.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Under a correspondence item: its signatures (the signature panel, decision 123), and its dispatch (decision 120):
 * where and how it went, or, for the file's holder, the Dispatch button.
 */
export function ItemDispatch({ file, item }: { file: EfileJson; item: EfileItemJson }) {
  const { t } = useTranslation('dispatch');
  const { formatDate } = useFormatDate();
  const dispatches = useFileDispatches(file._id);
  const [open, setOpen] = useState(false);
  if (!item.fileUrl) return null;
  const dispatched = dispatches.data?.find((d) => d.itemId === item._id);
  return (
    <Stack gap={6}>
      <SignaturePanel fileUrl={item.fileUrl} />
      {dispatched ? (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {t('dispatch.dispatched', {
              number: dispatched.outwardNumber,
              date: formatDate(dispatched.date),
              mode: t(`modes.${dispatched.mode}`),
            })}
          </Text>
          <Text size="sm">{t('dispatch.to', { names: dispatched.recipients.map((r) => r.name).join(', ') })}</Text>
        </Stack>
      ) : (
        file.can.act &&
        dispatches.isSuccess && (
          <Group>
            <Button
              size="xs"
              variant="light"
              onClick={() => setOpen(true)}
              aria-label={t('dispatch.buttonLabel', { ref: item.ref })}
            >
              {t('dispatch.button')}
            </Button>
          </Group>
        )
      )}
      {open && <DispatchDialog file={file} item={item} onClose={() => setOpen(false)} />}
    </Stack>
  );
}
