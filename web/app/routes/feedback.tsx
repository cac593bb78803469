import { Card, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { FeedbackForm, MyFeedback } from '#web/features/site/components/feedback-form.tsx';

/** /feedback — the Feedback form for staff and visitors (decision 019); staff also see their earlier messages. */
export default function FeedbackRoute() {
  const { t } = useTranslation('site');
  const { user, isSignedIn } = useSession();
  return (
    <>
      <PageTitle>{t('feedback.title')}</PageTitle>
      <Text mb="md">{t('feedback.lead')}</Text>
      <Card withBorder radius="md" padding="lg" maw={760}>
        <FeedbackForm defaults={{ name: user?.personalDetails.name ?? '', email: user?.email ?? '' }} />
      </Card>
      {isSignedIn && <MyFeedback />}
    </>
  );
}
