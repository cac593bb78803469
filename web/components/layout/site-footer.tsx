import { Container, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { FOOTER_LINKS } from './footer-links.ts';
import classes from './layout.module.css';

/**
 * The footer: the site pages of GIGW 3.0 (Help, Feedback, Accessibility statement, Sitemap, Terms of use, Privacy
 * policy, Archive; decision 019), then the lab's phone and address, static text (spec §2).
 */
export function SiteFooter({ labTitle }: { labTitle: string }) {
  const { t } = useTranslation(['common', 'site']);
  const phone = t('footer.phone');
  return (
    <footer className={classes.footer}>
      <Container size="xl" px={0}>
        <nav aria-label={t('site:footer.label')} className={classes.footerNav}>
          <ul className={classes.footerLinks}>
            {FOOTER_LINKS.map((link) => (
              <li key={link.id}>
                <Link to={link.to}>{t(`site:${link.label}`)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <Group justify="space-between" align="flex-start" gap="lg">
          <Stack gap={4}>
            <Text fw={700} inherit>
              {labTitle}
            </Text>
            <Text inherit>{t('footer.address')}</Text>
          </Stack>
          <Stack gap={4}>
            <Text inherit>
              {t('footer.phoneLabel')}: <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
            </Text>
            <Text inherit>{t('footer.copyright', { year: new Date().getFullYear() })}</Text>
          </Stack>
        </Group>
      </Container>
    </footer>
  );
}
