import { Avatar, type AvatarProps, Box } from '@mantine/core';

/** A user's avatar, or their initials on a colour of their own when they have none. */
export function UserAvatar({
  user,
  ...props
}: { user: { firstName: string; lastName: string; avatarUrl?: string | null } } & Omit<
  AvatarProps,
  'src' | 'name' | 'alt'
>) {
  const name = `${user.firstName} ${user.lastName}`;
  return <Avatar src={user.avatarUrl ?? null} name={name} alt={name} color="initials" {...props} />;
}

/** The green dot of sellers ('Vendedor'); grey for the rest. */
export function SellerDot({ isSeller }: { isSeller: boolean }) {
  const label = isSeller ? 'Vendedor' : 'No es vendedor';
  return (
    <Box
      component="span"
      role="img"
      aria-label={label}
      title={label}
      data-seller={isSeller}
      display="inline-block"
      w={12}
      h={12}
      style={{
        borderRadius: '50%',
        background: isSeller ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-gray-3)',
      }}
    />
  );
}
