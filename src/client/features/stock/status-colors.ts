import type { UnitStatus } from '../../../shared/domain/stock';

/** The colour of each unit status (Mantine's light variant: AA contrast by the theme). */
export const STATUS_COLORS: Record<UnitStatus, string> = {
  Disponible: 'green',
  Bloqueada: 'gray',
  Reservada: 'orange',
  Promesada: 'blue',
  Escriturada: 'grape',
};
