#!/bin/sh
# Writes the real-exporter fixtures of the corpus with the real programs (decision 0049):
#   apt-get install -y python3-openpyxl python3-pandas libreoffice-calc-nogui
#   sh src/server/test/corpus/make-exporters.sh
# Debian's python3 (/usr/bin/python3) for Debian's python packages. The outputs are committed; the
# versions that wrote them are in exporters/VERSIONS.txt. Excel and Google Sheets cannot run here:
# their fixtures are built to their structure by exporters.ts (what was matched is said there).
set -eu
cd "$(dirname "$0")/exporters"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 ../make-exporters.py
# LibreOffice: the same client list (Spanish (Chile), 13322; column 5 read as DD/MM/YY dates, format 4), as a CSV with a title block, converted to a workbook, and the
# workbook saved back as a Windows-1252 CSV with ';' (what Chilean Excel and LibreOffice save).
cp clientes-titulo.csv "$work/libreoffice-clientes.csv"
soffice --headless --norestore --infilter='CSV:59,34,76,1,5/4,13322' --convert-to xlsx:"Calc MS Excel 2007 XML" \
  --outdir "$work" "$work/libreoffice-clientes.csv" >/dev/null 2>&1
cp "$work/libreoffice-clientes.xlsx" libreoffice-clientes.xlsx
soffice --headless --norestore --convert-to 'csv:Text - txt - csv (StarCalc):59,34,ANSI,1' \
  --outdir "$work" libreoffice-clientes.xlsx >/dev/null 2>&1
cp "$work/libreoffice-clientes.csv" libreoffice-clientes-1252.csv
{
  /usr/bin/python3 -c 'import openpyxl, pandas; print("openpyxl", openpyxl.__version__); print("pandas", pandas.__version__)'
  soffice --version
} > VERSIONS.txt
