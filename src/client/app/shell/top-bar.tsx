// No Tooltip here: it would pull floating-ui into the initial bundle of every screen.
import {
  ActionIcon,
  Anchor,
  Avatar,
  Box,
  Burger,
  Group,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconBell, IconHomeHeart, IconMailCog, IconSearch, IconX } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { formatPersonName } from '../../../shared/format/names';
import type { SessionUser } from '../../../shared/schemas/auth';
import { MailPreferencesDialog } from '../../features/mail';
import { paths } from '../paths';

export const CREDIT_LINE = 'Inmoflujo · Desarrollado por el equipo Inmoflujo';

export function TopBar({
  user,
  menuOpened,
  onToggleMenu,
  onSignOut,
  search,
  bellBadge,
}: {
  user: SessionUser;
  menuOpened: boolean;
  onToggleMenu: () => void;
  onSignOut: () => void;
  search?: ReactNode;
  bellBadge?: ReactNode;
}) {
  const fullName = formatPersonName(user);
  // On a phone the search has no room beside the logo: an icon opens it across the bar (the same
  // one search box, so Ctrl+K and its state are not duplicated); choosing a result closes it.
  const [phoneSearchOpen, setPhoneSearchOpen] = useState(false);
  const searchBox = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new address closes the search
  useEffect(() => setPhoneSearchOpen(false), [pathname]);
  useEffect(() => {
    if (phoneSearchOpen) searchBox.current?.querySelector('input')?.focus();
  }, [phoneSearchOpen]);
  const hiddenOnPhoneWhileSearching = phoneSearchOpen ? 'sm' : undefined;
  const [mailPreferencesOpen, setMailPreferencesOpen] = useState(false);

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
      <Group wrap="nowrap" gap="sm" visibleFrom={hiddenOnPhoneWhileSearching}>
        <Burger
          opened={menuOpened}
          onClick={onToggleMenu}
          hiddenFrom="sm"
          size="sm"
          aria-label={menuOpened ? 'Cerrar menú' : 'Abrir menú'}
        />
        {/* The link holds only the logo and the name it is announced by (its accessible name must
            contain its visible text); the credit line sits under the name, outside the link. */}
        <Stack gap={0}>
          <Anchor
            component={Link}
            to={paths.dashboard}
            underline="never"
            c="inherit"
            aria-label="Inmoflujo, ir al inicio"
          >
            <Group gap={8} wrap="nowrap">
              <IconHomeHeart size={28} color="var(--mantine-color-blue-6)" aria-hidden />
              <Text component="span" fw={800} size="lg" lh={1.1}>
                Inmoflujo
              </Text>
            </Group>
          </Anchor>
          <Text size="xs" c="dimmed" visibleFrom="md" lh={1.2} pl={36} mt={-4}>
            {CREDIT_LINE}
          </Text>
        </Stack>
      </Group>

      <Box
        ref={searchBox}
        visibleFrom={phoneSearchOpen ? undefined : 'sm'}
        style={{ flex: 1, maxWidth: 460 }}
      >
        {search}
      </Box>
      {phoneSearchOpen ? (
        <ActionIcon
          hiddenFrom="sm"
          variant="subtle"
          color="gray"
          size="lg"
          aria-label="Cerrar búsqueda"
          onClick={() => setPhoneSearchOpen(false)}
        >
          <IconX size={22} aria-hidden />
        </ActionIcon>
      ) : null}

      <Group wrap="nowrap" gap="sm" visibleFrom={hiddenOnPhoneWhileSearching}>
        {search ? (
          <ActionIcon
            hiddenFrom="sm"
            variant="subtle"
            color="gray"
            size="lg"
            aria-label="Buscar"
            aria-expanded={phoneSearchOpen}
            onClick={() => setPhoneSearchOpen(true)}
          >
            <IconSearch size={22} aria-hidden />
          </ActionIcon>
        ) : null}
        <ActionIcon
          component={Link}
          to={paths.notifications}
          variant="subtle"
          size="lg"
          color="gray"
          title="Mis tareas pendientes y menciones"
          pos="relative"
        >
          <IconBell size={22} aria-hidden />
          {/* The accessible name reads "Notificaciones" plus what the badge says about the count. */}
          <VisuallyHidden>Notificaciones</VisuallyHidden>
          {bellBadge}
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          size="lg"
          color="gray"
          title="Avisos por correo"
          aria-label="Avisos por correo"
          onClick={() => setMailPreferencesOpen(true)}
        >
          <IconMailCog size={22} aria-hidden />
        </ActionIcon>
        <MailPreferencesDialog opened={mailPreferencesOpen} onClose={() => setMailPreferencesOpen(false)} />
        <Stack gap={0} visibleFrom="sm" align="flex-end">
          <Text size="sm" fw={600} lh={1.2}>
            {fullName}
          </Text>
          <Text size="xs" c="dimmed" lh={1.2}>
            {user.position}
          </Text>
        </Stack>
        <UnstyledButton onClick={onSignOut} aria-label="Cerrar sesión" title="Cerrar sesión">
          <Avatar src={user.avatarUrl} alt={fullName} radius="xl" color="blue" />
        </UnstyledButton>
      </Group>
    </Group>
  );
}
