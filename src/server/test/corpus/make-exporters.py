"""Client lists as openpyxl and pandas write them (run by make-exporters.sh)."""
import csv
import datetime

import openpyxl
import pandas

TITLE = 'Listado de clientes'
SUBTITLE = 'Generado el 01/12/2026 por Sistema Comercial'
HEADER = ['RUT', 'Nombres', 'Apellido Paterno', 'Apellido Materno', 'Fecha de nacimiento', 'Correo', 'Teléfono']
ROWS = [
    ['12.345.678-5', 'Ana María', 'Núñez', 'Peña', datetime.date(1980, 2, 1), 'ana@example.cl', '+56 9 1234 5678'],
    ['9.876.543-3', 'José', 'Ñancupil', 'Araya', datetime.date(1975, 12, 31), 'jose@example.cl', '+56 2 2345 6789'],
    ['15.111.222-6', 'Camila', "O'Higgins", 'Soto', datetime.date(1990, 6, 15), 'camila@example.cl', ''],
    ['7.654.321-6', 'Luis', 'Pérez', 'Güell', datetime.date(1968, 3, 9), 'luis@example.cl', '+56 9 8765 4321'],
    ['20.333.444-3', 'Sofía', 'Aravena', 'Díaz', datetime.date(2001, 1, 1), 'sofia@example.cl', '+56 9 5555 0000'],
    ['11.222.333-9', 'Pedro', 'Lagos', 'Muñoz', datetime.date(1985, 10, 20), 'pedro@example.cl', ''],
]
TOTAL = 'Total: 6 clientes'

# openpyxl: a title block (merged title, subtitle, a blank row), the header on row 4, a totals row.
book = openpyxl.Workbook()
sheet = book.active
sheet.title = 'Clientes'
sheet.append([TITLE])
sheet.merge_cells(start_row=1, start_column=1, end_row=1, end_column=len(HEADER))
sheet.append([SUBTITLE])
sheet.append([])
sheet.append(HEADER)
for row in ROWS:
    sheet.append(row)
    sheet.cell(row=sheet.max_row, column=5).number_format = 'DD/MM/YYYY'
sheet.append([])
sheet.append([TOTAL])
book.save('openpyxl-clientes.xlsx')

# pandas (through openpyxl): the plain table from row 1, dates as datetimes, an index left out.
frame = pandas.DataFrame(ROWS, columns=HEADER)
frame['Fecha de nacimiento'] = pandas.to_datetime(frame['Fecha de nacimiento'])
frame.to_excel('pandas-clientes.xlsx', sheet_name='Clientes', index=False)

# The CSV LibreOffice converts (UTF-8, ';'): the same title block and totals row.
with open('clientes-titulo.csv', 'w', encoding='utf-8', newline='') as out:
    writer = csv.writer(out, delimiter=';', lineterminator='\r\n')
    writer.writerow([TITLE])
    writer.writerow([SUBTITLE])
    writer.writerow([])
    writer.writerow(HEADER)
    for row in ROWS:
        writer.writerow([value.strftime('%d/%m/%Y') if isinstance(value, datetime.date) else value for value in row])
    writer.writerow([])
    writer.writerow([TOTAL])
