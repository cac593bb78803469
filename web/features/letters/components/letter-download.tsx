import { Button, type ButtonProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import type { LetterJson } from '#shared/schemas/letter.ts';

import { ViewDocument } from '#web/components/document-viewer/view-document.tsx';
import { api, needsStepUp } from '#web/lib/api-client.ts';
import { followLink } from '#web/lib/follow-link.ts';
import { serverMessage } from '#web/lib/form-errors.ts';

type Downloadable = Pick<LetterJson, '_id' | 'letterId' | 'classification' | 'fileUrl' | 'originalName'>;

/**
 * 'Download File' of a letter. The file is fetched by a plain link with the download cookie (decision 003), which
 * cannot show the "Confirm it is you" dialog: a Confidential or Secret letter's card is read first through the API
 * (GET /api/dac/{id}), which asks for the step-up in this page when the server wants one (decision 066), and
 * the file follows once it is given. A Normal letter's link goes as it always did. On a page a search result opened
 * (`?from=search`), both say so: the audit trail records the opening as a search hit opened (decision 070).
 */
export function LetterDownload({ letter, ...props }: { letter: Downloadable } & ButtonProps) {
  const { t } = useTranslation('letters');
  const [params] = useSearchParams();
  if (!letter.fileUrl) return null;
  const fromSearch = letter.classification !== 'Normal' && params.get('from') === 'search';
  const href = fromSearch ? `${letter.fileUrl}?from=search` : letter.fileUrl;
  const onClick = (event: MouseEvent) => {
    if (letter.classification === 'Normal') return;
    event.preventDefault();
    api.get(`/api/dac/${letter._id}`, fromSearch ? { params: { from: 'search' } } : {}).then(
      () => followLink(href, letter.originalName),
      (err: unknown) => {
        if (needsStepUp(err)) return; // the person cancelled the check
        notifications.show({ color: 'red', message: serverMessage(err) || t('list.downloadFailed') });
      },
    );
  };
  return (
    <>
      <Button
        component="a"
        href={href}
        download={letter.originalName ?? true}
        onClick={onClick}
        aria-label={t('list.downloadLabel', { name: letter.originalName ?? letter.letterId })}
        {...props}
      >
        {t('list.download')}
      </Button>
      <ViewDocument
        fileUrl={letter.fileUrl}
        name={letter.originalName ?? letter.letterId}
        fileName={letter.originalName}
      />
    </>
  );
}
