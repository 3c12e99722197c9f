-- The sandbox checkout link carries a secret besides the reference (docs/wallet.md, "The wallet
-- rules"): knowing a reference (it is in logs, redirects and W2 answers) must not be enough to
-- "pay" a top-up. Only its SHA-256 is kept; null for Paystack top-ups and for sandbox top-ups made
-- before this migration (their links stop working and they expire after 24 h like any unpaid
-- top-up).
ALTER TABLE wallet_transactions ADD COLUMN checkout_secret_hash text;
