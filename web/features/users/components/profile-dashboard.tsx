import { Alert, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { ProfileJson } from '#shared/schemas/user.ts';

import { getUserId, updateStoredUser } from '#web/lib/auth-storage.ts';

import { useProfile } from '../api.ts';
import { ActiveSessions } from './active-sessions.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { MailPreferences } from './mail-preferences.tsx';
import { ProfileForm } from './profile-form.tsx';
import { ProfilePhoto } from './profile-photo.tsx';
import { PersonAndWorkDetails, ProfileExtras, Section } from './profile-view.tsx';
import { SignOutEverywhere } from './sign-out-everywhere.tsx';

/**
 * My profile dashboard (spec §2): greeting with name and photo, the four sections (and social links, skills,
 * qualifications, emergency contact), Edit Profile mode, and the password change. The user id comes from browser
 * storage (spec §6); the server allows only the owner (or an admin).
 */
export function ProfileDashboard() {
  const { t } = useTranslation(['people', 'common']);
  const userId = getUserId();
  const profile = useProfile(userId);
  const [editing, setEditing] = useState(false);

  if (profile.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text>{t('profile.loading')}</Text>
      </Group>
    );
  }
  if (profile.isError || !userId) {
    return (
      <Alert color="red" variant="light" role="alert">
        <Text c="gray.9">{t('profile.loadFailed')}</Text>
      </Alert>
    );
  }
  const me = profile.data;
  const onSaved = (saved: ProfileJson) => {
    if (saved._id === userId) updateStoredUser(saved);
    setEditing(false);
    window.scrollTo(0, 0);
  };

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Group align="flex-start" gap="xl" wrap="wrap">
          <ProfilePhoto userId={me._id} name={me.personalDetails.name} photo={me.photo} />
          <Stack gap={6} style={{ flex: '1 1 260px' }}>
            <Title order={2} size="h3">
              {t('profile.greeting', { name: me.personalDetails.name })}
            </Title>
            <Text style={{ overflowWrap: 'anywhere' }}>{me.email}</Text>
            <Group gap="xs">
              <Badge color="navy" variant="filled">
                {t(`roles.${me.role}`)}
              </Badge>
              {me.group && (
                <Badge color="gray" variant="outline" tt="none" c="gray.9">
                  {me.group.name}
                </Badge>
              )}
            </Group>
            {me.professionalDetails.designation && <Text c="gray.8">{me.professionalDetails.designation}</Text>}
            <Text size="xs" c="gray.8">
              {t('profile.accountNote')}
            </Text>
          </Stack>
          {!editing && (
            <Button onClick={() => setEditing(true)} aria-label={t('profile.editProfile')}>
              {t('profile.editProfile')}
            </Button>
          )}
        </Group>
      </Card>

      {editing ? (
        <ProfileForm profile={me} onCancel={() => setEditing(false)} onSaved={onSaved} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <PersonAndWorkDetails profile={me} />
            <ProfileExtras profile={me} />
          </SimpleGrid>
          {/* A directory account's password is the lab directory's: changed there (decision 062). */}
          <Section title={t('password.title')}>
            {me.authSource === 'local' ? (
              <ChangePasswordForm userId={me._id} />
            ) : (
              <Text size="sm">{t('password.inDirectory')}</Text>
            )}
          </Section>
          {/* My Account → Email: how each kind of mail comes, where the portal sends mail. */}
          <Section title={t('mail.title')}>
            <MailPreferences />
          </Section>
          {/* My Account → Security: active sessions; the second factors follow (security-section.tsx). */}
          <Section title={t('security.sessions')}>
            <Stack gap="lg">
              <ActiveSessions />
              <Stack gap="xs">
                <Title order={3} size="h5">
                  {t('sessions.title')}
                </Title>
                <SignOutEverywhere />
              </Stack>
            </Stack>
          </Section>
        </>
      )}
    </Stack>
  );
}
