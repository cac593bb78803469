import { Badge, Button, Card, Group, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { SsoLinkRequestJson } from '#shared/schemas/sso-link.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useDecideSsoLink, useSsoLinkRequests } from '../api.ts';

type Decision = 'approve' | 'dismiss';

/** "Name (email)" of the provider's identity; the email alone when the provider gave no name. */
const providerLabel = (request: SsoLinkRequestJson) =>
  request.provider.name ? `${request.provider.name} (${request.provider.email})` : request.provider.email;

/**
 * Asks before an approval (which account is linked to which provider identity) or a dismissal; a refusal stays in the
 * dialog in the server's words (e.g. "already linked"), and the answer is toasted.
 */
function DecideModal({
  request,
  decision,
  onClose,
}: {
  request: SsoLinkRequestJson;
  decision: Decision;
  onClose: () => void;
}) {
  const { t } = useTranslation('people');
  const decide = useDecideSsoLink();
  const [error, setError] = useState('');
  const approve = decision === 'approve';
  const values = {
    name: request.account.name,
    email: request.account.email,
    provider: providerLabel(request),
    issuer: request.issuer,
  };
  const onConfirm = () => {
    setError('');
    decide.mutate(
      { requestId: request._id, decision },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            message: approve ? t('ssoLinks.approved', values) : t('ssoLinks.dismissed'),
          });
          onClose();
        },
        onError: (err) => setError(serverMessage(err, t('ssoLinks.failed'))),
      },
    );
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('approval.close') }}
      title={approve ? t('ssoLinks.approveTitle') : t('ssoLinks.dismissTitle')}
      centered
    >
      <Stack gap="md">
        <Text style={{ overflowWrap: 'anywhere' }}>
          {approve ? t('ssoLinks.approveQuestion', values) : t('ssoLinks.dismissQuestion', values)}
        </Text>
        {approve && <Text size="sm">{t('ssoLinks.approveNote')}</Text>}
        {error && <PanelError>{error}</PanelError>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('manage.cancel')}
          </Button>
          <Button color={approve ? undefined : 'red.9'} onClick={onConfirm} loading={decide.isPending}>
            {approve ? t('ssoLinks.confirmApprove') : t('ssoLinks.confirmDismiss')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RequestCard({ request }: { request: SsoLinkRequestJson }) {
  const { t } = useTranslation('people');
  const { formatDateTime } = useFormatDate();
  const [decision, setDecision] = useState<Decision | null>(null);
  const titleId = `sso-link-${request._id}`;
  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={3} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
          {request.account.name}
        </Title>
        <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
          {t('ssoLinks.account')}: {request.account.email} · {t(`roles.${request.account.role}`)}{' '}
          <Badge size="sm" variant="light" color="gray" c="gray.9">
            {t(`statuses.${request.account.status}`)}
          </Badge>
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('ssoLinks.provider')}: {providerLabel(request)}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('ssoLinks.issuer')}: {request.issuer}
        </Text>
        <Text size="sm" c="gray.8">
          {t('ssoLinks.requestedAt', { time: formatDateTime(request.requestedAt) })}
        </Text>
        <Group justify="space-between" mt="xs">
          <Button variant="outline" color="red.9" onClick={() => setDecision('dismiss')}>
            {t('ssoLinks.dismiss')}
          </Button>
          <Button onClick={() => setDecision('approve')}>{t('ssoLinks.approve')}</Button>
        </Group>
      </Stack>
      {decision && <DecideModal request={request} decision={decision} onClose={() => setDecision(null)} />}
    </Card>
  );
}

/**
 * "Single sign-on links to approve" on the approvals screen (decision 090): a first single sign-on whose email is an
 * account's, unverified by the provider, waits here; Approve links the account to that identity (after a confirm
 * naming both), Dismiss drops the request. Admins only, as the screen.
 */
export function SsoLinkRequests() {
  const { t } = useTranslation('people');
  const requests = useSsoLinkRequests();
  return (
    <Stack gap="md" component="section" aria-labelledby="sso-links-title">
      <Title order={2} size="h3" id="sso-links-title">
        {t('ssoLinks.title')}
      </Title>
      <Text size="sm">{t('ssoLinks.intro')}</Text>
      {requests.isPending ? (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{t('ssoLinks.loading')}</Text>
        </Group>
      ) : requests.isError ? (
        <PanelError>{serverMessage(requests.error, t('ssoLinks.loadFailed'))}</PanelError>
      ) : !requests.data.length ? (
        <EmptyState>{t('ssoLinks.empty')}</EmptyState>
      ) : (
        <>
          <Text c="gray.8" role="status">
            {t('ssoLinks.count', { count: requests.data.length })}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            {requests.data.map((request) => (
              <RequestCard key={request._id} request={request} />
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
