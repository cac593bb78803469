import { Anchor, Badge, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { ProfileJson } from '#shared/schemas/user.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

/** A label and its value; an empty value says 'Not provided' (no made-up data, spec §8 defect). */
export function Detail({ label, value }: { label: string; value: ReactNode }) {
  const { t } = useTranslation('people');
  const empty = value === null || value === undefined || value === '';
  return (
    <div>
      <Text size="sm" c="gray.8" fw={600}>
        {label}
      </Text>
      {/* A div, so a value may be a real list (Qualifications: axe listitem, decision 018). */}
      <Text
        component="div"
        style={{ overflowWrap: 'anywhere' }}
        c={empty ? 'gray.7' : undefined}
        fs={empty ? 'italic' : undefined}
      >
        {empty ? t('notProvided') : value}
      </Text>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** Personal and professional details of a profile, read-only (the dashboard's view mode, the approval modal). */
export function PersonAndWorkDetails({ profile }: { profile: Omit<ProfileJson, 'documents'> }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('people');
  const p = profile.personalDetails;
  const q = profile.professionalDetails;
  const e = p.emergencyContact;
  const emergency = [e.name, e.relationship && `(${e.relationship})`, e.mobile].filter(Boolean).join(' ');
  const option = (group: string, value: string) =>
    value ? t(`options.${group}.${value}`, { defaultValue: value }) : '';
  return (
    <>
      <Section title={t('profile.personalDetails')}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Detail label={t('fields.name')} value={p.name} />
          <Detail label={t('fields.dob')} value={formatDate(p.dob, '')} />
          <Detail label={t('fields.mobile')} value={p.mobile} />
          <Detail label={t('fields.gender')} value={option('genders', p.gender)} />
          <Detail label={t('fields.maritalStatus')} value={option('maritalStatuses', p.maritalStatus)} />
          <Detail label={t('fields.bloodGroup')} value={p.bloodGroup} />
          <Detail label={t('fields.address')} value={p.address} />
          <Detail label={t('fields.emergencyContact')} value={emergency} />
        </SimpleGrid>
      </Section>
      <Section title={t('profile.professionalDetails')}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Detail label={t('fields.cadre')} value={option('cadres', q.cadre)} />
          <Detail label={t('fields.designation')} value={q.designation} />
          <Detail label={t('fields.intercom')} value={q.intercom} />
          <Detail label={t('fields.internetEmail')} value={q.internetEmail} />
          <Detail label={t('fields.dronaEmail')} value={q.dronaEmail} />
          <Detail label={t('fields.pis')} value={q.pis} />
          <Detail label={t('fields.aebasId')} value={q.aebasId} />
          <Detail label={t('fields.joiningDate')} value={formatDate(q.joiningDate, '')} />
          <Detail
            label={t('fields.skills')}
            value={
              q.skills.length ? (
                <Group gap={6} component="span">
                  {q.skills.map((skill) => (
                    <Badge key={skill} variant="light" color="navy" tt="none">
                      {skill}
                    </Badge>
                  ))}
                </Group>
              ) : (
                ''
              )
            }
          />
          <Detail
            label={t('fields.qualifications')}
            value={
              q.qualifications.length ? (
                <List size="sm">
                  {q.qualifications.map((item) => (
                    <List.Item key={item}>{item}</List.Item>
                  ))}
                </List>
              ) : (
                ''
              )
            }
          />
        </SimpleGrid>
      </Section>
    </>
  );
}

/** About Me, Employment Period, Social Links and the documents on the record: the rest of the view mode. */
export function ProfileExtras({ profile }: { profile: ProfileJson }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('people');
  const links = (['linkedin', 'twitter', 'facebook', 'github'] as const).filter((site) => profile.socialLinks[site]);
  return (
    <>
      <Section title={t('profile.aboutMe')}>
        {profile.about ? (
          <Text style={{ whiteSpace: 'pre-line' }}>{profile.about}</Text>
        ) : (
          <Detail label={t('fields.about')} value="" />
        )}
      </Section>
      <Section title={t('profile.employmentPeriod')}>
        <SimpleGrid cols={2} spacing="sm">
          <Detail label={t('fields.from')} value={formatDate(profile.employmentPeriod.from, '')} />
          <Detail
            label={t('fields.to')}
            value={
              profile.employmentPeriod.from
                ? formatDate(profile.employmentPeriod.to, t('present'))
                : formatDate(profile.employmentPeriod.to, '')
            }
          />
        </SimpleGrid>
      </Section>
      <Section title={t('profile.socialLinks')}>
        {links.length ? (
          <Stack gap={4}>
            {links.map((site) => (
              <Anchor key={site} href={profile.socialLinks[site]} target="_blank" rel="noopener noreferrer">
                {t(`fields.${site}`)}
              </Anchor>
            ))}
          </Stack>
        ) : (
          <Text c="gray.7" fs="italic">
            {t('notProvided')}
          </Text>
        )}
      </Section>
      {profile.documents.length > 0 && (
        <Section title={t('profile.documents')}>
          <Text size="sm" c="gray.8" mb="xs">
            {t('profile.documentsHint')}
          </Text>
          <List size="sm">
            {profile.documents.map((doc) => (
              <List.Item key={doc._id}>
                <Anchor href={doc.url} target="_blank" rel="noopener noreferrer">
                  {t('profile.opensInNewTab', { name: doc.filename })}
                </Anchor>{' '}
                <Text span size="xs" c="gray.8">
                  {formatDate(doc.uploadedAt)}
                </Text>
              </List.Item>
            ))}
          </List>
        </Section>
      )}
    </>
  );
}
