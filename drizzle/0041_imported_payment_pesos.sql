-- Issue 55 (decision 0056): payments imported as paid before the import wrote commissions through their
-- owner were stored with their date but without their pesos. Each gets them now, frozen at its day's UF
-- value when that day is loaded (a missing day is left to `freezeMissingPesosIn`, when it is loaded),
-- by the domain's rule (shared/domain/uf.ts: `paymentUf`, then `ufToClp`): the first payment is the
-- commission times its percentage (all of it in one payment), rounded half-up to cents; the second the
-- rest; pesos rounded half-up to whole pesos. The amounts are positive, so round() (half away from
-- zero) is half-up here. `imports-owners.test.ts` holds the two homes of the rule equal.
UPDATE "broker_commissions" bc
   SET "payment_1_clp" = round(round(bc."commission_amount"
         * (CASE WHEN bc."number_of_payments" = 1 THEN 100 ELSE bc."first_payment_percentage" END) / 100, 2) * u."value", 0),
       "payment_1_uf_value" = u."value"
  FROM "uf_values" u
 WHERE u."date" = bc."payment_1_date" AND bc."payment_1_clp" IS NULL;
--> statement-breakpoint
UPDATE "broker_commissions" bc
   SET "payment_2_clp" = round((bc."commission_amount" - round(bc."commission_amount"
         * (CASE WHEN bc."number_of_payments" = 1 THEN 100 ELSE bc."first_payment_percentage" END) / 100, 2)) * u."value", 0),
       "payment_2_uf_value" = u."value"
  FROM "uf_values" u
 WHERE u."date" = bc."payment_2_date" AND bc."payment_2_clp" IS NULL;
