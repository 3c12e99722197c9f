// Tables of the invoices feature (owned by src/modules/invoices).
export {};
