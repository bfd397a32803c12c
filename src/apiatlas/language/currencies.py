"""The currency codes of ISO 4217 (in use): three capitals after a number are an amount's unit by their
own casing ("pay 10 USD"), but in a request written all in capitals ("SHOW 10 NEW ORDERS") only when
they are one of these codes and no word the language uses otherwise ("SHOW 10 TOP ORDERS")."""

from __future__ import annotations

from apiatlas.language.actions import ACTION_WORDS
from apiatlas.language.words import EVERY_WORDS, FUNCTION_WORDS, NEWEST_WORDS, PLAIN_WORDS, SENTENCE_WORDS

_CODES = (
    """AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD
    CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF
    GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP
    LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB
    PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP
    SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW
    ZWL"""
)
CURRENCY_CODES = frozenset(_CODES.split())
_WORDS = PLAIN_WORDS | FUNCTION_WORDS | SENTENCE_WORDS | NEWEST_WORDS | EVERY_WORDS | ACTION_WORDS


def currency_code(word: str) -> bool:
    """Whether ``word``, written in capitals, is a currency code and no word the language knows otherwise
    ("USD", "EUR"; not "TOP", "ALL")."""
    return word in CURRENCY_CODES and word.lower() not in _WORDS
