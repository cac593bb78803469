import { Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { VerificationJson } from '#shared/schemas/signature.ts';

import { api, ApiError } from '#web/lib/api-client.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { PanelError } from './panel-error.tsx';
import { PanelLoader } from './panel-loader.tsx';

type SignatureJson = VerificationJson['signatures'][number];

/** The check of a stored file's signatures (decision 123): /uploads/{area}/{name} → /api/signatures/{area}/{name}. */
export const signatureCheckUrl = (fileUrl: string) => fileUrl.replace(/^\/uploads\//, '/api/signatures/');

/** GET /api/signatures/{area}/{name}: kept for the page's life (a stored file never changes). */
export const useSignatureCheck = (fileUrl: string | null) =>
  useQuery({
    queryKey: ['signatures', fileUrl],
    queryFn: ({ signal }) => api.get<VerificationJson>(signatureCheckUrl(fileUrl!), { signal }),
    enabled: Boolean(fileUrl),
    staleTime: Infinity,
    retry: false,
  });

function SignatureItem({ signature }: { signature: SignatureJson }) {
  const { t } = useTranslation('signatures');
  const { formatDate, formatDateTime } = useFormatDate();
  const name = signature.signer?.commonName ?? t('panel.unknownSigner');
  return (
    <Card withBorder radius="sm" padding="xs" component="li">
      <Stack gap={4}>
        <Group gap="xs">
          <Text fw={600}>{t('panel.signer', { name })}</Text>
          <Badge color={signature.status === 'valid' ? '#1b5e20' : 'red.9'} variant="outline">
            {signature.status === 'valid' ? t('panel.valid') : t('panel.invalid')}
          </Badge>
          <Badge color={signature.trusted ? 'blue.9' : '#a33a06'} variant="outline">
            {signature.trusted ? t('panel.trusted') : t('panel.untrusted')}
          </Badge>
          {signature.changedAfter && (
            <Badge color="gray.8" variant="outline">
              {signature.status === 'valid' ? t('panel.laterSignature') : t('panel.changedAfter')}
            </Badge>
          )}
        </Group>
        <Text size="sm">
          {signature.signingTime
            ? t('panel.signedAt', { when: formatDateTime(signature.signingTime) })
            : t('panel.noTime')}
        </Text>
        {signature.reason && <Text size="sm">{t('panel.reason', { reason: signature.reason })}</Text>}
        {signature.chain.length > 0 && (
          <>
            <Text size="sm" fw={600}>
              {t('panel.chain')}
            </Text>
            <List size="sm" spacing={2} type="ordered">
              {signature.chain.map((c) => (
                <List.Item key={c.fingerprint256}>
                  <Text size="sm" span style={{ overflowWrap: 'anywhere' }}>
                    {c.commonName} — {t('panel.issuedBy', { issuer: c.issuer })};{' '}
                    {t('panel.validUntil', { from: formatDate(c.validFrom), to: formatDate(c.validTo) })}
                  </Text>
                </List.Item>
              ))}
            </List>
          </>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The signature panel shown with any stored signed PDF (a letter, a correspondence item): each signer, their
 * certificate chain, the signing time in IST, valid or not, changed after, trusted or not. Shows nothing for a file that
 * is not a PDF.
 */
export function SignaturePanel({ fileUrl }: { fileUrl: string }) {
  const { t } = useTranslation('signatures');
  const headingId = useId();
  const check = useSignatureCheck(fileUrl);
  if (check.isPending) return <PanelLoader label={t('panel.checking')} />;
  if (check.isError) {
    if (check.error instanceof ApiError && check.error.body?.code === 'signatures.not_pdf') return null;
    return <PanelError>{t('panel.failed')}</PanelError>;
  }
  const report = check.data;
  if (!report.signed) return null;
  return (
    // A group, not a landmark: a file shows one panel per item.
    <Stack role="group" gap={6} aria-labelledby={headingId}>
      <Group gap="xs">
        <Title order={4} size="h6" id={headingId}>
          {t('panel.title')}
        </Title>
        <Badge color={report.valid ? '#1b5e20' : 'red.9'} variant="outline">
          {report.valid ? t('panel.allValid') : t('panel.someInvalid')}
        </Badge>
      </Group>
      <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
        {report.signatures.map((s, i) => (
          <SignatureItem key={`${s.field ?? ''}-${i}`} signature={s} />
        ))}
      </Stack>
    </Stack>
  );
}

/**
 * A "Check signatures" button that shows the panel when pressed: for lists of many PDFs (the letters register), where
 * a check for every card would be asked for at once.
 */
export function SignaturePanelOnDemand({ fileUrl, name }: { fileUrl: string; name: string }) {
  const { t } = useTranslation('signatures');
  const [shown, setShown] = useState(false);
  if (shown) return <SignaturePanel fileUrl={fileUrl} />;
  return (
    <Button variant="subtle" size="xs" onClick={() => setShown(true)} aria-label={t('panel.checkLabel', { name })}>
      {t('panel.check')}
    </Button>
  );
}
