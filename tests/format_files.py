"""Files of the newer formats written at run time (spreadsheets, OpenDocument, EPUB, RTF,
e-mail), shared by the parser, hardening and ingest tests and the formats benchmark."""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import xlsxwriter

ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"'
)


def xlsx(path: Path) -> Path:
    """Two visible sheets (one with a formula), a hidden sheet and a chart sheet."""
    book = xlsxwriter.Workbook(str(path))
    prices = book.add_worksheet("Prices")
    prices.write_row(0, 0, ["Product", "Region", "Price", "Stock"])
    prices.write_row(1, 0, ["Kelp crisps", "North", 3.5, 120])
    prices.write_row(2, 0, ["Otter plush", "South", 24, 8])
    prices.write_row(3, 0, ["Sea salt", "East", 2.25, 300])
    prices.write_formula(4, 2, "=SUM(C2:C4)", None, 29.75)
    prices.write(4, 0, "Total")
    staff = book.add_worksheet("Staff")
    staff.write_row(0, 0, ["Name", "Role"])
    staff.write_row(1, 0, ["Ada Quill", "Harbour master"])
    secret = book.add_worksheet("Secret")
    secret.write_row(0, 0, ["Code", "Value"])
    secret.write_row(1, 0, ["vault", "hidden-sheet-marker"])
    secret.hide()
    chart = book.add_chart({"type": "column"})
    chart.add_series({"values": "=Prices!$C$2:$C$4"})
    book.add_chartsheet("Chart").set_chart(chart)
    book.close()
    return path


def _cell(value: object) -> str:
    if isinstance(value, int | float):
        kind = f'office:value-type="float" office:value="{value}"'
    else:
        kind = 'office:value-type="string"'
    return f"<table:table-cell {kind}><text:p>{escape(str(value))}</text:p></table:table-cell>"


def _row(values: Sequence[object]) -> str:
    return f"<table:table-row>{''.join(_cell(v) for v in values)}</table:table-row>"


def odf(path: Path, mimetype: str, body: str, *, manifest_extra: str = "") -> Path:
    """An OpenDocument package: its mimetype first and stored, then content.xml."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), mimetype, compress_type=zipfile.ZIP_STORED)
        z.writestr(
            "content.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ODF_NS}>'
            f"<office:body>{body}</office:body></office:document-content>",
        )
        z.writestr(
            "META-INF/manifest.xml",
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
            f'<manifest:file-entry manifest:full-path="content.xml">{manifest_extra}'
            "</manifest:file-entry></manifest:manifest>",
        )
    return path


def ods(path: Path, sheets: dict[str, Sequence[Sequence[object]]]) -> Path:
    tables = "".join(
        f'<table:table table:name="{escape(name)}">'
        + "".join(
            f"<table:table-row>{''.join(_cell(v) for v in row)}</table:table-row>" for row in rows
        )
        + "</table:table>"
        for name, rows in sheets.items()
    )
    body = f"<office:spreadsheet>{tables}</office:spreadsheet>"
    return odf(path, "application/vnd.oasis.opendocument.spreadsheet", body)


def message(
    subject: str,
    body: str,
    *,
    sender: str = "Ada Quill <ada@harbour.example>",
    to: str = "Crew <crew@harbour.example>",
    date: str = "Mon, 02 Mar 2026 09:15:00 +0000",
    message_id: str = "",
    in_reply_to: str = "",
    attachments: Sequence[tuple[str, bytes, str]] = (),
    html: str = "",
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Date"] = date
    msg["Subject"] = subject
    if message_id:
        msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body)
    if html:
        msg.add_alternative(html, subtype="html")
    for filename, data, mime in attachments:
        maintype, subtype = mime.split("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return msg


def eml(path: Path, msg: EmailMessage) -> Path:
    path.write_bytes(bytes(msg))
    return path


def mbox(path: Path, messages: Sequence[EmailMessage]) -> Path:
    import mailbox

    box = mailbox.mbox(str(path), create=True)
    try:
        for msg in messages:
            box.add(msg)
        box.flush()
    finally:
        box.close()
    return path


def odt(path: Path) -> Path:
    body = (
        "<office:text>"
        "<text:table-of-content><text:p>Contents ... 1</text:p></text:table-of-content>"
        '<text:h text:outline-level="1">Harbour minutes</text:h>'
        "<text:p>The meeting opened at nine.<text:s/>Ada chaired it.</text:p>"
        '<text:h text:outline-level="2">Decisions</text:h>'
        "<text:list><text:list-item><text:p>Dredge the east channel</text:p></text:list-item>"
        "<text:list-item><text:p>Paint the lighthouse</text:p><text:list><text:list-item>"
        "<text:p>in white</text:p></text:list-item></text:list></text:list-item></text:list>"
        "<table:table><table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell>"
        "<table:table-cell><text:p>Budget</text:p></table:table-cell></table:table-row>"
        "<table:table-row><table:table-cell><text:p>Dredging</text:p></table:table-cell>"
        "<table:table-cell><text:p>18,000</text:p></table:table-cell>"
        '<table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>'
        "</office:text>"
    )
    return odf(path, "application/vnd.oasis.opendocument.text", body)


def odp(path: Path) -> Path:
    def frame(cls: str, text: str) -> str:
        return (
            f'<draw:frame presentation:class="{cls}"><draw:text-box>{text}'
            "</draw:text-box></draw:frame>"
        )

    body = (
        "<office:presentation>"
        '<draw:page draw:name="p1">'
        + frame("title", "<text:p>Tide tables</text:p>")
        + frame("outline", "<text:list><text:list-item><text:p>Spring tides peak at 6.1 m</text:p>"
                "</text:list-item></text:list>")
        + '<presentation:notes><draw:frame presentation:class="notes"><draw:text-box>'
        "<text:p>Mention the storm surge.</text:p></draw:text-box></draw:frame>"
        "</presentation:notes>"
        "</draw:page>"
        '<draw:page draw:name="p2">'
        + frame("title", "<text:p>Crew</text:p>")
        + frame("outline", "<text:p>Twelve pilots are on the roster.</text:p>")
        + "</draw:page></office:presentation>"
    )  # fmt: skip
    return odf(path, "application/vnd.oasis.opendocument.presentation", body)


def epub(path: Path, *, drm: bool = False) -> Path:
    chapter = (
        '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
        "<head><title>{title}</title></head><body>{body}</body></html>"
    )
    files = {
        "META-INF/container.xml": (
            '<?xml version="1.0"?><container version="1.0" '
            'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
            '<rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
            "</rootfiles></container>"
        ),
        "OEBPS/book.opf": (
            '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Keeper handbook'
            "</dc:title></metadata><manifest>"
            '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
            '<item id="c2" href="text/two.xhtml" media-type="application/xhtml+xml"/>'
            '<item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/>'
            '<item id="css" href="style.css" media-type="text/css"/>'
            '</manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>'
        ),
        "OEBPS/nav.xhtml": (
            '<html xmlns="http://www.w3.org/1999/xhtml"><body><nav><ol>'
            '<li><a href="text/one.xhtml">Lighting the lamp</a></li>'
            '<li><a href="text/two.xhtml#start">Logbook rules</a></li></ol></nav></body></html>'
        ),
        "OEBPS/text/one.xhtml": chapter.format(
            title="One", body="<h1>Lighting the lamp</h1><p>Trim the wick before dusk.</p>"
        ),
        "OEBPS/text/two.xhtml": chapter.format(
            title="Two", body="<p>Every entry in the logbook is signed in ink.</p>"
        ),
        "OEBPS/style.css": "p { margin: 0 }",
    }
    if drm:
        files["META-INF/encryption.xml"] = (
            '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
            '<enc:CipherData><enc:CipherReference URI="OEBPS/text/one.xhtml"/></enc:CipherData>'
            "</enc:EncryptedData></encryption>"
        )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", zipfile.ZIP_STORED)
        for name, text in files.items():
            z.writestr(name, text)
    return path


def rtf(path: Path) -> Path:
    path.write_bytes(
        b"{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times;}}{\\info{\\title Berth policy}}"
        b"\\pard\\b Berth policy\\b0\\par The berth fee is 40 pounds per night.\\par"
        b"{\\pict\\pngblip 89504e470d0a1a0a0000000d49484452}\\par Caf\\'e9 hours are 8 to 4.\\par}"
    )
    return path


def outlook(
    path: Path,
    subject: str,
    body: str,
    *,
    html: str = "",
    attachments: Sequence[tuple[str, bytes]] = (),
    embedded: Sequence[tuple[str, object]] = (),
    message_class: str = "",
) -> Path:
    """An Outlook .msg written by aspose-email-foss (an MSG writer independent of the
    extract-msg reader citewise uses): sender, recipient, date, body, attachments."""
    message = build_outlook(subject, body, html=html, attachments=attachments)
    for name, inner in embedded:
        message.add_embedded_message_attachment(inner, filename=name)
    if message_class:
        message.message_class = message_class
    message.save(str(path))
    return path


def build_outlook(
    subject: str, body: str, *, html: str = "", attachments: Sequence[tuple[str, bytes]] = ()
) -> Any:
    """The message object `outlook` saves (to attach one message to another)."""
    from aspose.email_foss import msg as mapi

    message = mapi.MapiMessage.create(subject, body)
    message.set_property(mapi.PropertyId.SENDER_NAME, "Ada Quill")
    message.set_property(mapi.PropertyId.SENDER_EMAIL_ADDRESS, "ada@harbour.example")
    message.set_property(
        mapi.PropertyId.MESSAGE_DELIVERY_TIME, datetime(2026, 3, 2, 9, 15, tzinfo=UTC)
    )
    message.add_recipient("crew@harbour.example", display_name="Crew")
    if html:
        message.body_html = html
    for name, data in attachments:
        message.add_attachment(name, data)
    return message
