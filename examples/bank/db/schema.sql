-- The sample bank's data tables (schema "bank"). Loaded by apiatlas.samples.bankdb.load_bank_database,
-- which drops and recreates the schema, then fills it with deterministic generated data.
-- Column types are the base types of the domain types (samples/domain_types.py, DomainTypes.htm).

CREATE SCHEMA bank;
COMMENT ON SCHEMA bank IS 'Данные учебного банка (вымышленные): клиенты, счета, сделки, вклады, карты';

CREATE TABLE bank.dataset (
    key   varchar(40) PRIMARY KEY,
    value text NOT NULL
);
COMMENT ON TABLE bank.dataset IS 'Паспорт набора данных: версия, зерно генератора, операционный день';

CREATE TABLE bank.oper_day (
    oper_date date PRIMARY KEY
);
COMMENT ON TABLE bank.oper_day IS 'Текущий операционный день банка (одна строка; фиксирован, не now())';

CREATE TABLE bank.branch (
    branch_code varchar(10) PRIMARY KEY,
    branch_name varchar(255) NOT NULL,
    city        varchar(40) NOT NULL
);
COMMENT ON TABLE bank.branch IS 'Подразделения (филиалы, доп. офисы) банка';
COMMENT ON COLUMN bank.branch.branch_code IS 'Код подразделения (DSCODE)';

CREATE TABLE bank.currency (
    currency_code char(3) PRIMARY KEY,
    iso_alpha     char(3) NOT NULL UNIQUE,
    currency_name varchar(40) NOT NULL
);
COMMENT ON TABLE bank.currency IS 'Справочник валют (цифровой код по ОКВ)';

CREATE TABLE bank.currency_rate (
    currency_code char(3) NOT NULL REFERENCES bank.currency,
    rate_date     date NOT NULL,
    nominal       integer NOT NULL,
    rate          numeric(19,8) NOT NULL,
    PRIMARY KEY (currency_code, rate_date)
);
COMMENT ON TABLE bank.currency_rate IS 'Официальные курсы валют к рублю по датам (за nominal единиц валюты)';

CREATE TABLE bank.person (
    person_id     numeric(15,0) PRIMARY KEY,
    sur_name      varchar(160) NOT NULL,
    first_name    varchar(40) NOT NULL,
    patronymic    varchar(40),
    birth_date    date NOT NULL,
    gender        char(1) NOT NULL CHECK (gender IN ('M', 'F')),
    inn           varchar(12),
    phone         varchar(20),
    email         varchar(100),
    resident_flag smallint NOT NULL DEFAULT 1 CHECK (resident_flag IN (0, 1)),
    created_date  date NOT NULL
);
COMMENT ON TABLE bank.person IS 'Физические лица — клиенты банка';
COMMENT ON COLUMN bank.person.person_id IS 'ID физического лица (PersonID)';
COMMENT ON COLUMN bank.person.sur_name IS 'Фамилия';
COMMENT ON COLUMN bank.person.inn IS 'ИНН физического лица (12 цифр), может отсутствовать';
COMMENT ON COLUMN bank.person.resident_flag IS '1 — резидент РФ, 0 — нерезидент';
CREATE INDEX person_sur_name_idx ON bank.person (lower(sur_name));
CREATE INDEX person_inn_idx ON bank.person (inn);

CREATE TABLE bank.person_doc (
    doc_id      numeric(15,0) PRIMARY KEY,
    person_id   numeric(15,0) NOT NULL REFERENCES bank.person,
    doc_type    varchar(10) NOT NULL CHECK (doc_type IN ('21', '10')),
    doc_series  varchar(10),
    doc_number  varchar(20) NOT NULL,
    issue_date  date NOT NULL,
    issued_by   varchar(255) NOT NULL
);
COMMENT ON TABLE bank.person_doc IS 'Документы, удостоверяющие личность';
COMMENT ON COLUMN bank.person_doc.doc_type IS 'Вид документа: 21 — паспорт РФ, 10 — паспорт иностранного гражданина';
CREATE INDEX person_doc_person_idx ON bank.person_doc (person_id);

CREATE TABLE bank.address (
    address_id   numeric(15,0) PRIMARY KEY,
    person_id    numeric(15,0) NOT NULL REFERENCES bank.person,
    addr_type    varchar(10) NOT NULL CHECK (addr_type IN ('REG', 'FACT', 'POST')),
    post_code    varchar(6) NOT NULL,
    city         varchar(40) NOT NULL,
    street       varchar(255) NOT NULL,
    house        varchar(10) NOT NULL,
    flat         varchar(10),
    full_address varchar(500) NOT NULL
);
COMMENT ON TABLE bank.address IS 'Адреса физических лиц';
COMMENT ON COLUMN bank.address.addr_type IS 'REG — регистрации, FACT — фактического проживания, POST — почтовый';
CREATE INDEX address_person_idx ON bank.address (person_id);

CREATE TABLE bank.account (
    account_id    numeric(15,0) PRIMARY KEY,
    owner_id      numeric(15,0) NOT NULL REFERENCES bank.person,
    acc_number    varchar(25) NOT NULL UNIQUE,
    currency_code char(3) NOT NULL REFERENCES bank.currency,
    acc_type      varchar(10) NOT NULL CHECK (acc_type IN ('CUR', 'CARD', 'DEP', 'BRK')),
    branch_code   varchar(10) NOT NULL REFERENCES bank.branch,
    open_date     date NOT NULL,
    close_date    date,
    purpose       varchar(1000)
);
COMMENT ON TABLE bank.account IS 'Лицевые счета клиентов';
COMMENT ON COLUMN bank.account.owner_id IS 'ID владельца счёта (ID физического лица, PersonID)';
COMMENT ON COLUMN bank.account.acc_number IS 'Номер лицевого счёта (20 цифр, с контрольным ключом)';
COMMENT ON COLUMN bank.account.acc_type IS 'CUR — текущий, CARD — карточный, DEP — депозитный (счёт вклада), BRK — брокерский';
CREATE INDEX account_owner_idx ON bank.account (owner_id);

CREATE TABLE bank.account_turn (
    turn_id    numeric(15,0) PRIMARY KEY,
    account_id numeric(15,0) NOT NULL REFERENCES bank.account,
    turn_date  date NOT NULL,
    direction  char(1) NOT NULL CHECK (direction IN ('D', 'C')),
    amount     numeric(19,2) NOT NULL CHECK (amount > 0),
    purpose    varchar(1000) NOT NULL
);
COMMENT ON TABLE bank.account_turn IS 'Обороты (проводки) по счетам: D — дебет (списание), C — кредит (зачисление)';
CREATE INDEX account_turn_acc_date_idx ON bank.account_turn (account_id, turn_date);

CREATE TABLE bank.account_rest (
    account_id numeric(15,0) NOT NULL REFERENCES bank.account,
    rest_date  date NOT NULL,
    rest       numeric(19,2) NOT NULL,
    PRIMARY KEY (account_id, rest_date)
);
COMMENT ON TABLE bank.account_rest IS
    'Исходящие остатки на конец дня; строка есть на дату открытия и на каждый день с оборотами. '
    'Остаток на дату D — последняя строка с rest_date <= D';

CREATE TABLE bank.security (
    security_id   numeric(15,0) PRIMARY KEY,
    isin          char(12) NOT NULL UNIQUE,
    security_name varchar(255) NOT NULL,
    issuer_name   varchar(255) NOT NULL,
    sec_type      varchar(10) NOT NULL CHECK (sec_type IN ('SHARE', 'BOND', 'OFZ')),
    face_value    numeric(19,2) NOT NULL,
    currency_code char(3) NOT NULL REFERENCES bank.currency,
    maturity_date date
);
COMMENT ON TABLE bank.security IS 'Ценные бумаги (акции, облигации, ОФЗ)';
COMMENT ON COLUMN bank.security.maturity_date IS 'Дата погашения (NULL для акций)';

CREATE TABLE bank.deal_security (
    deal_security_id numeric(15,0) PRIMARY KEY,
    deal_number      varchar(30) NOT NULL UNIQUE,
    deal_date        date NOT NULL,
    direction        varchar(10) NOT NULL CHECK (direction IN ('BUY', 'SELL')),
    security_id      numeric(15,0) NOT NULL REFERENCES bank.security,
    quantity         numeric(19,4) NOT NULL CHECK (quantity > 0),
    price            numeric(19,8) NOT NULL,
    amount           numeric(19,2) NOT NULL,
    currency_code    char(3) NOT NULL REFERENCES bank.currency,
    account_id       numeric(15,0) NOT NULL REFERENCES bank.account
);
COMMENT ON TABLE bank.deal_security IS 'Сделки клиентов с ценными бумагами; account_id — счёт расчётов по сделке';
CREATE INDEX deal_security_acc_idx ON bank.deal_security (account_id, deal_date);

CREATE TABLE bank.deposit (
    deposit_id          numeric(15,0) PRIMARY KEY,
    person_id           numeric(15,0) NOT NULL REFERENCES bank.person,
    contract_number     varchar(40) NOT NULL UNIQUE,
    product_name        varchar(255) NOT NULL,
    open_date           date NOT NULL,
    end_date            date,
    close_date          date,
    amount              numeric(19,2) NOT NULL,
    rate                numeric(9,4) NOT NULL,
    currency_code       char(3) NOT NULL REFERENCES bank.currency,
    account_id          numeric(15,0) NOT NULL REFERENCES bank.account,
    capitalization_flag smallint NOT NULL CHECK (capitalization_flag IN (0, 1))
);
COMMENT ON TABLE bank.deposit IS 'Договоры вкладов; end_date NULL — до востребования; close_date NULL — вклад действует';
COMMENT ON COLUMN bank.deposit.account_id IS 'Счёт вклада';
CREATE INDEX deposit_person_idx ON bank.deposit (person_id);

CREATE TABLE bank.card (
    card_id     numeric(15,0) PRIMARY KEY,
    account_id  numeric(15,0) NOT NULL REFERENCES bank.account,
    card_mask   varchar(19) NOT NULL,
    exp_date    date NOT NULL,
    card_status varchar(10) NOT NULL CHECK (card_status IN ('ACT', 'BLK', 'CLS'))
);
COMMENT ON TABLE bank.card IS 'Банковские карты, выпущенные к счетам';
COMMENT ON COLUMN bank.card.card_mask IS 'Маскированный номер: первые 6 и последние 4 цифры';
COMMENT ON COLUMN bank.card.card_status IS 'ACT — активна, BLK — заблокирована, CLS — закрыта (в т. ч. по истечении срока)';
CREATE INDEX card_account_idx ON bank.card (account_id);
