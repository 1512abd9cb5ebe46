sqlite3 records.db ".import --csv records.csv records"
rm records.csv
