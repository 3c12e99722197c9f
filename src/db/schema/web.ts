// Tables of the web feature (owned by src/modules/web).
export {};
