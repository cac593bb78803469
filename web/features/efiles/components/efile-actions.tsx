import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type MouseEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { EfileJson } from '#shared/schemas/efile.ts';

import { api, needsStepUp } from '#web/lib/api-client.ts';
import { followLink } from '#web/lib/follow-link.ts';
import { serverMessage } from '#web/lib/form-errors.ts';

import { exportHref, type SimpleMove, useSimpleMove } from '../api.ts';
import { ReturnDialog, RouteDialog, SendDialog } from './move-dialogs.tsx';

type Dialog = 'send' | 'return' | 'route' | null;

/** The actions the file's state allows the reader (`can` from the server), and the export PDF. */
export function EfileActions({ file }: { file: EfileJson }) {
  const { t, i18n } = useTranslation('efiles');
  const href = exportHref(file._id, i18n.language);
  const [dialog, setDialog] = useState<Dialog>(null);
  const move = useSimpleMove();
  const run = (kind: SimpleMove) =>
    move.mutate(
      { id: file._id, move: kind },
      {
        onSuccess: () =>
          notifications.show({ color: 'green', message: t(`moves.${kind}.done`, { number: file.number }) }),
        onError: (err) => notifications.show({ color: 'red', message: serverMessage(err, t('failed')) }),
      },
    );
  const busy = (kind: SimpleMove) => move.isPending && move.variables?.move === kind;
  const simple = (kind: SimpleMove, variant = 'default') => (
    <Button key={kind} variant={variant} onClick={() => run(kind)} loading={busy(kind)}>
      {t(`moves.${kind}.button`)}
    </Button>
  );
  // The export is a GET, so the download cookie signs it in as it does a letter's file (decision 003). The file is
  // read through the API client first, so a classified file asks for the step-up in this page (decision 095).
  const onExport = (event: MouseEvent) => {
    event.preventDefault();
    api.get(`/api/efiles/${file._id}`).then(
      () => followLink(href, `${file.number.replace(/[^\w-]+/g, '-')}.pdf`),
      (err: unknown) => {
        if (!needsStepUp(err)) notifications.show({ color: 'red', message: serverMessage(err, t('failed')) });
      },
    );
  };
  const { can } = file;
  const open = file.state === 'open';
  return (
    <>
      <Group gap="xs" wrap="wrap" role="group" aria-label={t('actions.label')}>
        {can.receive && simple('receive', 'filled')}
        {can.act && open && <Button onClick={() => setDialog('send')}>{t('send.button')}</Button>}
        {can.act && open && (
          <Button variant="light" onClick={() => setDialog('return')}>
            {t('return.button')}
          </Button>
        )}
        {can.act && open && (
          <Button variant="default" onClick={() => setDialog('route')}>
            {t('route.button')}
          </Button>
        )}
        {can.pullBack && simple('pull-back')}
        {can.act && open && simple('park')}
        {can.resume && simple('resume', 'light')}
        {can.close && simple('close', 'light')}
        {can.reopen && simple('reopen', 'light')}
        {can.copyOnly && simple('seen')}
        <Button component="a" variant="subtle" href={href} download onClick={onExport}>
          {t('actions.export')}
        </Button>
      </Group>
      {dialog === 'send' && <SendDialog file={file} onClose={() => setDialog(null)} />}
      {dialog === 'return' && <ReturnDialog file={file} onClose={() => setDialog(null)} />}
      {dialog === 'route' && <RouteDialog file={file} onClose={() => setDialog(null)} />}
    </>
  );
}
