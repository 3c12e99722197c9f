// Tables of the wallet feature (owned by src/modules/wallet).
export {};
