import type { BrokerRow } from '../../../shared/schemas/brokers';
import type { ClientRow } from '../../../shared/schemas/clients';
import { useBrokers } from '../brokers/api';
import { useClients } from '../clients/api';

/** The buyer as the reservation form shows it. */
/** A buyer as the reservation form shows it; `isDeleted` when its record was deleted since. */
export type ClientSummary = Pick<ClientRow, 'id' | 'rut' | 'firstName' | 'lastName'> & {
  isDeleted?: boolean;
};
export type BrokerOption = Pick<BrokerRow, 'id' | 'name' | 'businessName'>;

/** Up to five live clients by RUT or name; with no search, the five newest (a useful start). */
export function useClientSearch(search: string) {
  return useClients({ search: search || undefined, pageSize: 5 });
}

/** Brokers by name, RUT or business name, searched on the server. */
export function useBrokerSearch(search: string) {
  return useBrokers({ search: search || undefined, pageSize: 20 });
}
