-- GET /api/loans unfiltered (the API's list and the console's Loans page): a company's loans newest
-- first, with their total. No index began with (company_id, id): the page walked loans_pkey backwards
-- from the newest loan of any company, keeping the company's (an older company's first page read every
-- later company's loans), and the total counted the company's loans by scanning the whole table. Here
-- both read the company's entries only (loans.repo.ts `page`; loans.page-plan.test.ts).
CREATE INDEX loans_company_idx ON loans (company_id, id DESC);
