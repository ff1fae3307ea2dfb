import { sql } from 'drizzle-orm';
import { type Executor, isoInstant, queryRows } from '../../db/client';

// What the product's PDFs print (pdfs.service.ts): one statement each, reading the reservation with
// its client, project, seller, broker and units, and the broker's commission with its payments.

export interface ReceiptData {
  reservationNumber: string;
  reservationDate: string;
  createdAt: string;
  clientName: string;
  clientRut: string;
  clientEmail: string | null;
  projectName: string;
  projectStage: string;
  logoUrl: string | null;
  apartmentNumber: string;
  parkingNumber: string | null;
  storageNumber: string | null;
  apartmentPrice: string;
  parkingPrice: string;
  storagePrice: string;
  totalPrice: string;
  columnDiscount: string;
  additionalDiscount: string;
  otherDiscount: string;
  minimumPrice: string;
  reservationPayment: string;
  promisePayment: string;
  downPayment: string;
  creditPayment: string;
  subsidyPayment: string;
  totalPayment: string;
  sellerName: string | null;
  brokerName: string | null;
  brokerRut: string | null;
  isRescinded: boolean;
  units: { kind: string; number: string; price: string }[];
}

export async function findReceiptData(db: Executor, reservationId: string): Promise<ReceiptData | null> {
  const [row] = await queryRows<ReceiptData>(
    db,
    sql`select r.reservation_number as "reservationNumber", r.reservation_date::text as "reservationDate",
               ${isoInstant(sql`r.created_at`)} as "createdAt",
               c.first_name || ' ' || c.last_name as "clientName", c.rut as "clientRut", c.email as "clientEmail",
               p.name as "projectName", p.stage as "projectStage", p.logo_url as "logoUrl",
               r.apartment_number as "apartmentNumber", r.parking_number as "parkingNumber",
               r.storage_number as "storageNumber",
               r.apartment_price::text as "apartmentPrice", r.parking_price::text as "parkingPrice",
               r.storage_price::text as "storagePrice", r.total_price::text as "totalPrice",
               r.column_discount::text as "columnDiscount", r.additional_discount::text as "additionalDiscount",
               r.other_discount::text as "otherDiscount", r.minimum_price::text as "minimumPrice",
               r.reservation_payment::text as "reservationPayment", r.promise_payment::text as "promisePayment",
               r.down_payment::text as "downPayment", r.credit_payment::text as "creditPayment",
               r.subsidy_payment::text as "subsidyPayment", r.total_payment::text as "totalPayment",
               (select s.first_name || ' ' || s.last_name from profiles s where s.id = r.seller_id) as "sellerName",
               b.name as "brokerName", b.rut as "brokerRut", r.is_rescinded as "isRescinded",
               coalesce((select json_agg(json_build_object('kind', u.kind, 'number', u.number, 'price', ru.price::text)
                                         order by u.kind, u.number)
                           from reservation_units ru join units u on u.id = ru.unit_id
                          where ru.reservation_id = r.id), '[]'::json) as units
          from reservations r
          join clients c on c.id = r.client_id
          join projects p on p.id = r.project_id
          left join brokers b on b.id = r.broker_id
         where r.id = ${reservationId}`,
  );
  return row ?? null;
}

export interface StatementData {
  commissionAmount: string;
  commissionIncludesTax: boolean;
  netCommission: string;
  numberOfPayments: number;
  firstPaymentPercentage: number;
  purchaseOrder: string | null;
  invoice1: string | null;
  invoice1Date: string | null;
  payment1Date: string | null;
  payment1Clp: string | null;
  payment1UfValue: string | null;
  invoice2: string | null;
  invoice2Date: string | null;
  payment2Date: string | null;
  payment2Clp: string | null;
  payment2UfValue: string | null;
  updatedAt: string;
}

export async function findStatementData(db: Executor, reservationId: string): Promise<StatementData | null> {
  const [row] = await queryRows<StatementData>(
    db,
    sql`select commission_amount::text as "commissionAmount", commission_includes_tax as "commissionIncludesTax",
               net_commission::text as "netCommission", number_of_payments as "numberOfPayments",
               first_payment_percentage as "firstPaymentPercentage", purchase_order as "purchaseOrder",
               invoice_1 as "invoice1", invoice_1_date::text as "invoice1Date", payment_1_date::text as "payment1Date",
               payment_1_clp::text as "payment1Clp", payment_1_uf_value::text as "payment1UfValue",
               invoice_2 as "invoice2", invoice_2_date::text as "invoice2Date", payment_2_date::text as "payment2Date",
               payment_2_clp::text as "payment2Clp", payment_2_uf_value::text as "payment2UfValue",
               ${isoInstant(sql`updated_at`)} as "updatedAt"
          from broker_commissions where reservation_id = ${reservationId}`,
  );
  return row ?? null;
}
