-- Housekeeping of the console tables: old failed sign-ins are pruned by age.
CREATE INDEX web_login_failures_created_idx ON web_login_failures (created_at);
