/**
 * The SHA-256 of every committed migration (issue 29): a migration is never edited once committed —
 * a database that applied it would never see the edit. A change to one of these fails
 * migrations.test.ts; a new migration adds its line here (the test prints it).
 */
export const MIGRATION_HASHES: Record<string, string> = {
  '0000_extensions': 'fc27e97b9a61877f7f59d59a69c8c0bd2cd3271bc44b9f208800ed458d18a10b',
  '0001_data_model': '913426fd30f7e85369f88e75af2664a405670500e0d34c7f0280da64e61932a8',
  '0002_workflow_definitions': '830ecc7c643e29994f6558dd832fa0cb04c40bfb81cd4c0bddd07bae18965483',
  '0003_dashboard_indexes': 'cc811feab3f6f5874be7a41473444e26939b0ffefb240fcbd8e0832546623eec',
  '0004_workflow_engine': '9c5132d13a6cf3baa0f5dbe68bbb4546b62861e4f8e5c4245139a6482e84f2a8',
  '0005_drop_wave1_flow_tables': '4a7b460b6f5a8c459a715cf7f02ef757d8f6775af4a77c1289a654d224c8ceca',
  '0006_dashboard_rollups': 'e88007e1eb4939f1484bea3f0898667e146dc3f7e2c9fe8f24e3bde690c4e1b6',
  '0007_rut_search_without_hyphen': 'b3971e57df859fb8d443daf7c1d0f6c976ebaa7630703e723c154d561d5376ab',
  '0008_stored_files': 'f61fb17803b905be562192ce86dd2825bacae50058776e19a6f6191a8d23c742',
  '0009_sale_flow_list': '662061fe80f63cff3fa0e3f51dee9b41dfb96c05c65be5a361ddc10114683ce3',
  '0010_payments_list': '7589c2965473a629d4dd57535bbca0d65ce39f0712765e6533d8208e82a706a6',
  '0011_list_sorts': 'c03db1b96ff54e44b63b502edfe804a68bf0cd4c7086c15266adf44861c159d1',
  '0012_list_sorts_rut': 'b0728ea1d025f8d8dc9cd9cf71a04f1e3fd3de4ff7dc8479b954b036799b121f',
  '0013_task_inbox': '2926a5a7682f83f4a8f0de412487c795169b2f353e299c32d721ee8ef081d910',
  '0014_assignees_flow': '34d4ca6546e3af81049e6c86bda3708286c500f197c17e6581faa80ad2316c21',
  '0015_reports_indexes': '23f4c3ce39b90a8f5faa53ce6f2be8474d50945c6e18dbf216105ddddb455311',
  '0016_reports_date_indexes': 'cf97b76005ca125c06925c888b9efc7612e558cf411bcabd2252087bf3a17758',
  '0017_audit_log': '70110875d3c0d66a59a425b900c326dd4273d636354fe9f333132f6e7c1fd6bf',
  '0018_report_open_tasks': '0b66371a2e46f15d9cce63bac58c93f952cd755d762fe68ba76208bba4ef4b30',
  '0019_sale_flow_client_search': '5ecc6d239124bf3ab1fd94afc802283bec7f76d487f7c91149e133a5a23ceb9d',
  '0020_approval_authority': '6b03a850e310a2652d9148272d796b1ae73480f07097a58e3f3f582ff4e233ed',
  '0021_holders_data_rights': '9d597f415710f9d6cb75c61359a090c2ee5d6f5af5116fdb32143cb80ef126f6',
  '0022_migrations_in_line': 'bb85eb770820fca7e1a55824842d65d210b9861057fe275baec574398fc49a16',
  '0023_login_failures': '32b059dbb81b9185719ef4df1a989e0cacfac08127577438a4b6e54d5944704a',
  '0024_mention_inbox': '2d6d875b053dfbabc19852469db833900128e137d085df4748a584e6b40a3104',
  '0025_task_inbox_task_order': '95fb364ea9970980185f2fb97f5b69b2b7b75da2557f6ea7b94bc31764af14d9',
  '0027_stock': '462de367c461671cf318b8f02c49c134fd2403bc0339610b27d90799f509a2c4',
  '0028_imports': '9f30780814d9ce1807651aaa32c1f40e6dacb4550637015a5d7b44d9181d9899',
  '0029_pesos': '2f8e040f5b904637a1da29e17d8067c9e807eb4ce33b42cdf7caba15735aa7ef',
  '0030_mail_outbox': 'c2a3f72f6ac6ea62c2990f6314ea3a92c3ede6a0e32b8b8c813670ac283d74b4',
  '0031_documents': '1eeac2f5ee8be5f406577508a24c60050e6361ac0184f68ee1995c7cc4c9437f',
  '0032_broker_invoices': '209245704e897250909fa66be4fa50fa7ece7876fa31fadb73b2a53e883621cb',
};
