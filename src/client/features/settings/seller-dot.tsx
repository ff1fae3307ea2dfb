import { Box } from '@mantine/core';

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
