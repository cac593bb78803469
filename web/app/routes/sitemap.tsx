import { Anchor, Card, List, SimpleGrid, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useNavigation } from '#web/app/use-navigation.ts';
import { FOOTER_LINKS } from '#web/components/layout/footer-links.ts';
import type { NavEntry, NavItem } from '#web/components/nav-bar/navigation.ts';
import { PageTitle } from '#web/components/page-title.tsx';
import { paths } from '#web/lib/paths.ts';

type LinkItem = Extract<NavItem, { kind: 'link' }>;

/** The links of one navigation entry: a link itself, or the links inside a menu. */
const linksOf = (entry: NavEntry): LinkItem[] =>
  entry.kind === 'link'
    ? [{ kind: 'link', id: entry.id, label: entry.label, to: entry.to }]
    : entry.items.filter((i): i is LinkItem => i.kind === 'link');

/**
 * /sitemap — every page the current person may reach (decision 019): the main navigation built from the same data
 * as the header's menus (useNavigation), the site pages of the footer, and for a visitor the registration page.
 */
export default function SitemapRoute() {
  const { t } = useTranslation(['site', 'common']);
  const { session, navigation } = useNavigation();
  const text = (item: LinkItem) => {
    const name = item.text ?? t(item.label ?? '', { ns: 'common' });
    return item.tag ? `${name} (${t(item.tag)})` : name;
  };
  // The top-level links together, then each menu under its own name.
  const sections = [
    { id: 'main', title: t('sitemap.main'), links: navigation.filter((e) => e.kind === 'link').flatMap(linksOf) },
    ...navigation
      .filter((e) => e.kind === 'menu')
      .map((entry) => ({ id: entry.id, title: t(entry.label, { ns: 'common' }), links: linksOf(entry) })),
    {
      id: 'site',
      title: t('sitemap.siteInfo'),
      links: FOOTER_LINKS.map((l): LinkItem => ({ kind: 'link', id: l.id, text: t(l.label), to: l.to })),
    },
    ...(session.isSignedIn
      ? []
      : [
          {
            id: 'account',
            title: t('sitemap.account'),
            links: [{ kind: 'link', id: 'register', text: t('sitemap.register'), to: paths.register } as LinkItem],
          },
        ]),
  ];
  return (
    <>
      <PageTitle>{t('sitemap.title')}</PageTitle>
      <Text mb="md">{t('sitemap.lead')}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        {sections.map((section) => (
          <Card
            key={section.id}
            withBorder
            radius="md"
            padding="md"
            component="section"
            aria-labelledby={`sm-${section.id}`}
          >
            <Title order={2} size="h4" id={`sm-${section.id}`} mb="xs">
              {section.title}
            </Title>
            <List spacing={4}>
              {section.links.map((link) => (
                <List.Item key={link.id}>
                  <Anchor component={Link} to={link.to}>
                    {text(link)}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
