// Nigerian public holidays that stop the pension clock (Pension Reform Act 2014 s.11(3)(b): "not later
// than 7 working days from the day the employee is paid"). Source: the Public Holidays Act (Cap. P40
// LFN 2004, as amended: 12 June Democracy Day since 2019) for the fixed days and the rule that a
// holiday falling on a Saturday or Sunday is observed on the next working day; the Federal Ministry
// of Interior's yearly declarations for Easter and the Islamic holidays. Written offline on
// HOLIDAYS_AS_OF (docs/compliance.md): the Islamic holidays move with the sighting of the moon and
// the FG announces them a few days ahead, so the 2026 and 2027 ones (and any substitute day) are
// the expected dates; correct this file when the FG declares them. A year outside HOLIDAY_YEARS is
// counted with weekends only, which the API reports as such (docs/compliance.md).
export const HOLIDAYS_AS_OF = '2025-06-30';
export const HOLIDAY_YEARS = [2024, 2025, 2026, 2027] as const;

/** date → name; `(observed)` marks the working day that replaces a holiday on a weekend. */
export const NIGERIAN_PUBLIC_HOLIDAYS: Readonly<Record<string, string>> = {
  // 2024 (declared)
  '2024-01-01': "New Year's Day",
  '2024-03-29': 'Good Friday',
  '2024-04-01': 'Easter Monday',
  '2024-04-09': 'Eid-el-Fitr',
  '2024-04-10': 'Eid-el-Fitr',
  '2024-05-01': "Workers' Day",
  '2024-06-12': 'Democracy Day',
  '2024-06-17': 'Eid-el-Kabir (observed)',
  '2024-06-18': 'Eid-el-Kabir',
  '2024-09-16': 'Eid-el-Maulud',
  '2024-10-01': 'Independence Day',
  '2024-12-25': 'Christmas Day',
  '2024-12-26': 'Boxing Day',
  // 2025 (declared)
  '2025-01-01': "New Year's Day",
  '2025-03-31': 'Eid-el-Fitr',
  '2025-04-01': 'Eid-el-Fitr',
  '2025-04-18': 'Good Friday',
  '2025-04-21': 'Easter Monday',
  '2025-05-01': "Workers' Day",
  '2025-06-06': 'Eid-el-Kabir',
  '2025-06-09': 'Eid-el-Kabir',
  '2025-06-12': 'Democracy Day',
  '2025-09-05': 'Eid-el-Maulud',
  '2025-10-01': 'Independence Day',
  '2025-12-25': 'Christmas Day',
  '2025-12-26': 'Boxing Day',
  // 2026 (fixed days and Easter certain; Islamic holidays expected)
  '2026-01-01': "New Year's Day",
  '2026-03-20': 'Eid-el-Fitr (expected)',
  '2026-03-23': 'Eid-el-Fitr (expected)',
  '2026-04-03': 'Good Friday',
  '2026-04-06': 'Easter Monday',
  '2026-05-01': "Workers' Day",
  '2026-05-27': 'Eid-el-Kabir (expected)',
  '2026-05-28': 'Eid-el-Kabir (expected)',
  '2026-06-12': 'Democracy Day',
  '2026-08-26': 'Eid-el-Maulud (expected)',
  '2026-10-01': 'Independence Day',
  '2026-12-25': 'Christmas Day',
  '2026-12-28': 'Boxing Day (observed)',
  // 2027 (fixed days and Easter certain; Islamic holidays expected)
  '2027-01-01': "New Year's Day",
  '2027-03-10': 'Eid-el-Fitr (expected)',
  '2027-03-11': 'Eid-el-Fitr (expected)',
  '2027-03-26': 'Good Friday',
  '2027-03-29': 'Easter Monday',
  '2027-05-03': "Workers' Day (observed)",
  '2027-05-17': 'Eid-el-Kabir (expected)',
  '2027-05-18': 'Eid-el-Kabir (expected)',
  '2027-06-14': 'Democracy Day (observed)',
  '2027-08-16': 'Eid-el-Maulud (observed, expected)',
  '2027-10-01': 'Independence Day',
  '2027-12-27': 'Christmas Day (observed)',
  '2027-12-28': 'Boxing Day (observed)',
};
