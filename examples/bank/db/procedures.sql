-- The sample bank's APIs (schema "api"): one PROCEDURE per core API of docs/sample-bank.md, plus two
-- plain functions returning rows. Convention (see docs/sample-bank.md, "Database convention"):
--   * arguments p_<param lower> in documented order, optional ones DEFAULT NULL;
--   * session tables are TEMP tables created by the caller, named exactly like the documented table
--     (quoted), columns in lower case; a procedure empties its output tables, then fills them;
--   * errors: RAISE EXCEPTION USING ERRCODE = 'P0001', DETAIL = '<code>', HINT = '<param or table>';
--   * no procedure writes a real table, so every one runs inside a READ ONLY transaction.
-- Error codes are those of the documentation (samples/bank_core.py, bank_api_errors.py); a required
-- scalar parameter passed as NULL raises the convention-wide code 50000 (HINT = parameter name) unless the
-- API documents its own code for it. Unknown keys: the documented "not found" code where the API has one,
-- otherwise an empty output table.

CREATE SCHEMA api;
COMMENT ON SCHEMA api IS 'API учебного банка: одна процедура на метод, вызов через сессионные (временные) таблицы';

-- Helpers (schema bank, not part of the API surface) --------------------------------------------

CREATE FUNCTION bank.oper_date() RETURNS date
LANGUAGE sql STABLE AS $$ SELECT max(oper_date) FROM bank.oper_day $$;
COMMENT ON FUNCTION bank.oper_date() IS 'Текущий операционный день банка';

CREATE FUNCTION bank.rest_at(p_account_id numeric, p_date date) RETURNS numeric
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT r.rest FROM bank.account_rest r
                     WHERE r.account_id = p_account_id AND r.rest_date <= p_date
                     ORDER BY r.rest_date DESC LIMIT 1), 0)
$$;
COMMENT ON FUNCTION bank.rest_at(numeric, date) IS 'Исходящий остаток счёта на конец дня p_date (0 до открытия)';

CREATE FUNCTION bank.is_blank(p_value text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$ SELECT p_value IS NULL OR btrim(p_value) = '' $$;

CREATE FUNCTION bank.require_param(p_missing boolean, p_name text) RETURNS void
LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF p_missing THEN
        RAISE EXCEPTION 'Не задан обязательный параметр @%', p_name
            USING ERRCODE = 'P0001', DETAIL = '50000', HINT = p_name;
    END IF;
END $$;
COMMENT ON FUNCTION bank.require_param(boolean, text) IS 'Ошибка 50000, если обязательный параметр не задан';

-- Prs: physical persons ------------------------------------------------------------------------------

CREATE PROCEDURE api."API_Prs_FindListByFIO"(
    p_surname varchar, p_firstname varchar DEFAULT NULL, p_patronymic varchar DEFAULT NULL,
    p_birthdate date DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Person_FindList";
    IF bank.is_blank(p_surname) THEN
        RAISE EXCEPTION 'Не задана фамилия' USING ERRCODE = 'P0001', DETAIL = '50101', HINT = 'SurName';
    END IF;
    IF length(btrim(p_surname)) < 2 THEN
        RAISE EXCEPTION 'Слишком короткая строка поиска: фамилия должна содержать не менее 2 символов'
            USING ERRCODE = 'P0001', DETAIL = '50102', HINT = 'SurName';
    END IF;
    INSERT INTO "pAPI_Person_FindList" (personid, surname, firstname, patronymic, birthdate, inn)
    SELECT p.person_id, p.sur_name, p.first_name, p.patronymic, p.birth_date, p.inn
    FROM bank.person p
    WHERE lower(p.sur_name) = lower(btrim(p_surname))
      AND (bank.is_blank(p_firstname) OR lower(p.first_name) = lower(btrim(p_firstname)))
      AND (bank.is_blank(p_patronymic) OR lower(p.patronymic) = lower(btrim(p_patronymic)))
      AND (p_birthdate IS NULL OR p.birth_date = p_birthdate)
    ORDER BY p.sur_name, p.first_name, p.patronymic, p.birth_date, p.person_id;
END $$;
COMMENT ON PROCEDURE api."API_Prs_FindListByFIO"(varchar, varchar, varchar, date) IS
    'Поиск физических лиц по ФИО (точное совпадение без учёта регистра) и дате рождения';

CREATE PROCEDURE api."API_Prs_FindListByINN"(p_inn varchar)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Person_FindList";
    IF p_inn IS NULL OR btrim(p_inn) !~ '^[0-9]{12}$' THEN
        RAISE EXCEPTION 'Некорректный ИНН «%»: ожидается 12 цифр', coalesce(p_inn, '')
            USING ERRCODE = 'P0001', DETAIL = '50103', HINT = 'INN';
    END IF;
    INSERT INTO "pAPI_Person_FindList" (personid, surname, firstname, patronymic, birthdate, inn)
    SELECT p.person_id, p.sur_name, p.first_name, p.patronymic, p.birth_date, p.inn
    FROM bank.person p WHERE p.inn = btrim(p_inn)
    ORDER BY p.person_id;
END $$;
COMMENT ON PROCEDURE api."API_Prs_FindListByINN"(varchar) IS 'Поиск физических лиц по ИНН (12 цифр)';

CREATE PROCEDURE api."API_Prs_FindByID"(p_personid numeric)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Person_Info";
    PERFORM bank.require_param(p_personid IS NULL, 'PersonID');
    INSERT INTO "pAPI_Person_Info"
        (personid, surname, firstname, patronymic, birthdate, inn, phone, email, residentflag)
    SELECT p.person_id, p.sur_name, p.first_name, p.patronymic, p.birth_date, p.inn, p.phone, p.email,
           p.resident_flag
    FROM bank.person p WHERE p.person_id = p_personid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Физическое лицо с указанным ID (%) не найдено', p_personid
            USING ERRCODE = 'P0001', DETAIL = '50104', HINT = 'PersonID';
    END IF;
END $$;
COMMENT ON PROCEDURE api."API_Prs_FindByID"(numeric) IS 'Карточка физического лица по ID';

CREATE PROCEDURE api."API_Prs_GetDocList"(p_personid numeric)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Person_Doc";
    PERFORM bank.require_param(p_personid IS NULL, 'PersonID');
    IF NOT EXISTS (SELECT 1 FROM bank.person p WHERE p.person_id = p_personid) THEN
        RAISE EXCEPTION 'Физическое лицо с указанным ID (%) не найдено', p_personid
            USING ERRCODE = 'P0001', DETAIL = '50104', HINT = 'PersonID';
    END IF;
    INSERT INTO "pAPI_Person_Doc" (personid, doctype, docseries, docnumber, issuedate, issuedby)
    SELECT d.person_id, d.doc_type, d.doc_series, d.doc_number, d.issue_date, d.issued_by
    FROM bank.person_doc d WHERE d.person_id = p_personid
    ORDER BY d.issue_date DESC, d.doc_id;
END $$;
COMMENT ON PROCEDURE api."API_Prs_GetDocList"(numeric) IS 'Документы, удостоверяющие личность физического лица';

-- Addr: addresses --------------------------------------------------------------------------------------

CREATE PROCEDURE api."API_Addr_FindListByPersonID"(p_personid numeric, p_addrtype varchar DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Address_List";
    PERFORM bank.require_param(p_personid IS NULL, 'PersonID');
    IF NOT bank.is_blank(p_addrtype) AND upper(btrim(p_addrtype)) NOT IN ('REG', 'FACT', 'POST') THEN
        RAISE EXCEPTION 'Неизвестный тип адреса «%»: допустимо REG, FACT, POST', p_addrtype
            USING ERRCODE = 'P0001', DETAIL = '50201', HINT = 'AddrType';
    END IF;
    INSERT INTO "pAPI_Address_List" (addressid, personid, addrtype, postcode, city, street, fulladdress)
    SELECT a.address_id, a.person_id, a.addr_type, a.post_code, a.city,
           a.street || ', д. ' || a.house || coalesce(', кв. ' || a.flat, ''), a.full_address
    FROM bank.address a
    WHERE a.person_id = p_personid
      AND (bank.is_blank(p_addrtype) OR a.addr_type = upper(btrim(p_addrtype)))
    ORDER BY a.addr_type DESC, a.address_id;
END $$;
COMMENT ON PROCEDURE api."API_Addr_FindListByPersonID"(numeric, varchar) IS 'Адреса физического лица';

-- Acc: accounts -----------------------------------------------------------------------------------------

CREATE PROCEDURE api."API_Acc_FindListByListOwnerID"(p_onlyopenflag smallint DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Account_List";
    IF NOT EXISTS (SELECT 1 FROM "pAPI_Account_OwnerID" WHERE ownerid IS NOT NULL) THEN
        RAISE EXCEPTION 'Не задан ни один владелец (входная таблица pAPI_Account_OwnerID пуста)'
            USING ERRCODE = 'P0001', DETAIL = '50001', HINT = 'pAPI_Account_OwnerID';
    END IF;
    INSERT INTO "pAPI_Account_List" (accountid, ownerid, accnumber, currencycode, acctype, opendate, closedate)
    SELECT a.account_id, a.owner_id, a.acc_number, a.currency_code, a.acc_type, a.open_date, a.close_date
    FROM bank.account a
    WHERE a.owner_id IN (SELECT o.ownerid::numeric FROM "pAPI_Account_OwnerID" o WHERE o.ownerid IS NOT NULL)
      AND (p_onlyopenflag IS DISTINCT FROM 1 OR a.close_date IS NULL OR a.close_date > bank.oper_date())
    ORDER BY a.owner_id, a.open_date, a.account_id;
END $$;
COMMENT ON PROCEDURE api."API_Acc_FindListByListOwnerID"(smallint) IS
    'Счета по списку владельцев (входная таблица pAPI_Account_OwnerID); @OnlyOpenFlag = 1 — только открытые';

CREATE PROCEDURE api."API_Acc_FindByNumber"(p_accnumber varchar)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Account_Info";
    PERFORM bank.require_param(bank.is_blank(p_accnumber), 'AccNumber');
    IF btrim(p_accnumber) !~ '^[0-9]{20}$' THEN
        RAISE EXCEPTION 'Некорректный номер счёта «%»: ожидается 20 цифр', p_accnumber
            USING ERRCODE = 'P0001', DETAIL = '50003', HINT = 'AccNumber';
    END IF;
    INSERT INTO "pAPI_Account_Info"
        (accountid, ownerid, accnumber, currencycode, acctype, branchcode, opendate, closedate, purpose)
    SELECT a.account_id, a.owner_id, a.acc_number, a.currency_code, a.acc_type, a.branch_code, a.open_date,
           a.close_date, a.purpose
    FROM bank.account a WHERE a.acc_number = btrim(p_accnumber);
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Счёт с указанным номером (%) не найден', p_accnumber
            USING ERRCODE = 'P0001', DETAIL = '50002', HINT = 'AccNumber';
    END IF;
END $$;
COMMENT ON PROCEDURE api."API_Acc_FindByNumber"(varchar) IS 'Справочные данные счёта по 20-значному номеру';

CREATE PROCEDURE api."API_Acc_FindByID"(p_accountid numeric)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Account_Info";
    PERFORM bank.require_param(p_accountid IS NULL, 'AccountID');
    INSERT INTO "pAPI_Account_Info"
        (accountid, ownerid, accnumber, currencycode, acctype, branchcode, opendate, closedate, purpose)
    SELECT a.account_id, a.owner_id, a.acc_number, a.currency_code, a.acc_type, a.branch_code, a.open_date,
           a.close_date, a.purpose
    FROM bank.account a WHERE a.account_id = p_accountid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Счёт с указанным ID (%) не найден', p_accountid
            USING ERRCODE = 'P0001', DETAIL = '50004', HINT = 'AccountID';
    END IF;
END $$;
COMMENT ON PROCEDURE api."API_Acc_FindByID"(numeric) IS 'Справочные данные счёта по ID (не остаток)';

CREATE PROCEDURE api."API_Acc_GetRest"(p_accountid numeric, p_restdate date DEFAULT NULL)
LANGUAGE plpgsql AS $$
DECLARE
    v_date date := coalesce(p_restdate, bank.oper_date());
    v_open date;
BEGIN
    DELETE FROM "pAPI_Account_Rest";
    PERFORM bank.require_param(p_accountid IS NULL, 'AccountID');
    SELECT a.open_date INTO v_open FROM bank.account a WHERE a.account_id = p_accountid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Счёт с указанным ID (%) не найден', p_accountid
            USING ERRCODE = 'P0001', DETAIL = '50004', HINT = 'AccountID';
    END IF;
    IF v_date < v_open THEN
        RAISE EXCEPTION 'Дата остатка % раньше даты открытия счёта %', v_date, v_open
            USING ERRCODE = 'P0001', DETAIL = '50005', HINT = 'RestDate';
    END IF;
    -- incoming balance of v_date = outgoing balance at the end of the previous day
    INSERT INTO "pAPI_Account_Rest" (accountid, accnumber, restdate, rest, currencycode)
    SELECT a.account_id, a.acc_number, v_date, bank.rest_at(a.account_id, v_date - 1), a.currency_code
    FROM bank.account a WHERE a.account_id = p_accountid;
END $$;
COMMENT ON PROCEDURE api."API_Acc_GetRest"(numeric, date) IS
    'Входящий остаток на счёте на дату (по умолчанию — на текущий операционный день)';

CREATE PROCEDURE api."API_Acc_GetRestTurn"(p_accountid numeric, p_datefrom date, p_dateto date)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Account_Turn";
    PERFORM bank.require_param(p_accountid IS NULL, 'AccountID');
    PERFORM bank.require_param(p_datefrom IS NULL, 'DateFrom');
    PERFORM bank.require_param(p_dateto IS NULL, 'DateTo');
    IF p_datefrom > p_dateto THEN
        RAISE EXCEPTION 'Дата начала периода % позже даты окончания %', p_datefrom, p_dateto
            USING ERRCODE = 'P0001', DETAIL = '50006', HINT = 'DateFrom';
    END IF;
    INSERT INTO "pAPI_Account_Turn" (accountid, datefrom, dateto, restin, debetturn, creditturn, restout)
    SELECT a.account_id, p_datefrom, p_dateto,
           bank.rest_at(a.account_id, p_datefrom - 1),
           coalesce((SELECT sum(t.amount) FROM bank.account_turn t WHERE t.account_id = a.account_id
                     AND t.direction = 'D' AND t.turn_date BETWEEN p_datefrom AND p_dateto), 0),
           coalesce((SELECT sum(t.amount) FROM bank.account_turn t WHERE t.account_id = a.account_id
                     AND t.direction = 'C' AND t.turn_date BETWEEN p_datefrom AND p_dateto), 0),
           bank.rest_at(a.account_id, p_dateto)
    FROM bank.account a WHERE a.account_id = p_accountid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Счёт с указанным ID (%) не найден', p_accountid
            USING ERRCODE = 'P0001', DETAIL = '50004', HINT = 'AccountID';
    END IF;
END $$;
COMMENT ON PROCEDURE api."API_Acc_GetRestTurn"(numeric, date, date) IS
    'Входящий остаток, дебетовый и кредитовый обороты и исходящий остаток счёта за период (включительно)';

-- DSec: securities deals -------------------------------------------------------------------------------

CREATE PROCEDURE api."API_DSec_FindListIDByAccID"(p_datefrom date DEFAULT NULL, p_dateto date DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_DSec_IDList";
    IF NOT EXISTS (SELECT 1 FROM "pAPI_DSec_AccID" WHERE accountid IS NOT NULL) THEN
        RAISE EXCEPTION 'Не задан ни один счёт (входная таблица pAPI_DSec_AccID пуста)'
            USING ERRCODE = 'P0001', DETAIL = '50301', HINT = 'pAPI_DSec_AccID';
    END IF;
    IF p_datefrom > p_dateto THEN
        RAISE EXCEPTION 'Дата начала периода % позже даты окончания %', p_datefrom, p_dateto
            USING ERRCODE = 'P0001', DETAIL = '50302', HINT = 'DateFrom';
    END IF;
    INSERT INTO "pAPI_DSec_IDList" (dealsecurityid, accountid)
    SELECT d.deal_security_id, d.account_id
    FROM bank.deal_security d
    WHERE d.account_id IN (SELECT i.accountid::numeric FROM "pAPI_DSec_AccID" i WHERE i.accountid IS NOT NULL)
      AND (p_datefrom IS NULL OR d.deal_date >= p_datefrom)
      AND (p_dateto IS NULL OR d.deal_date <= p_dateto)
    ORDER BY d.deal_date, d.deal_security_id;
END $$;
COMMENT ON PROCEDURE api."API_DSec_FindListIDByAccID"(date, date) IS
    'ID сделок с ценными бумагами по списку счетов (входная таблица pAPI_DSec_AccID) за период';

CREATE PROCEDURE api."API_DealSecurity_FindListByID"()
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_DealSecurity_List";
    IF NOT EXISTS (SELECT 1 FROM "pAPI_DealSecurity_ID" WHERE dealsecurityid IS NOT NULL) THEN
        RAISE EXCEPTION 'Входная таблица pAPI_DealSecurity_ID пуста'
            USING ERRCODE = 'P0001', DETAIL = '50303', HINT = 'pAPI_DealSecurity_ID';
    END IF;
    INSERT INTO "pAPI_DealSecurity_List" (dealsecurityid, dealnumber, dealdate, direction, securityid, isin,
        securityname, quantity, price, amount, currencycode, accountid)
    SELECT d.deal_security_id, d.deal_number, d.deal_date, d.direction, d.security_id, s.isin, s.security_name,
           d.quantity, d.price, d.amount, d.currency_code, d.account_id
    FROM bank.deal_security d JOIN bank.security s ON s.security_id = d.security_id
    WHERE d.deal_security_id IN
          (SELECT i.dealsecurityid::numeric FROM "pAPI_DealSecurity_ID" i WHERE i.dealsecurityid IS NOT NULL)
    ORDER BY d.deal_date, d.deal_security_id;
END $$;
COMMENT ON PROCEDURE api."API_DealSecurity_FindListByID"() IS
    'Данные сделок с ценными бумагами по списку ID (входная таблица pAPI_DealSecurity_ID)';

-- Sec: securities ---------------------------------------------------------------------------------------

CREATE PROCEDURE api."API_Sec_FindByISIN"(p_isin varchar)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Security_Info";
    PERFORM bank.require_param(bank.is_blank(p_isin), 'ISIN');
    INSERT INTO "pAPI_Security_Info"
        (securityid, isin, securityname, issuername, facevalue, currencycode, maturitydate)
    SELECT s.security_id, s.isin, s.security_name, s.issuer_name, s.face_value, s.currency_code, s.maturity_date
    FROM bank.security s WHERE s.isin = upper(btrim(p_isin));
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Ценная бумага с указанным ISIN (%) не найдена', p_isin
            USING ERRCODE = 'P0001', DETAIL = '50401', HINT = 'ISIN';
    END IF;
END $$;
COMMENT ON PROCEDURE api."API_Sec_FindByISIN"(varchar) IS 'Параметры ценной бумаги по коду ISIN';

-- Dep: deposits -----------------------------------------------------------------------------------------

CREATE FUNCTION bank.deposit_amount(p_deposit bank.deposit) RETURNS numeric
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN p_deposit.close_date IS NULL OR p_deposit.close_date > bank.oper_date()
                THEN bank.rest_at(p_deposit.account_id, bank.oper_date())
                ELSE p_deposit.amount END
$$;
COMMENT ON FUNCTION bank.deposit_amount(bank.deposit) IS
    'Текущая сумма вклада: остаток счёта вклада (действующий вклад) или сумма договора (закрытый)';

CREATE PROCEDURE api."API_Dep_FindListByPersonID"(p_personid numeric, p_onlyopenflag smallint DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Deposit_List";
    PERFORM bank.require_param(p_personid IS NULL, 'PersonID');
    IF NOT EXISTS (SELECT 1 FROM bank.person p WHERE p.person_id = p_personid) THEN
        RAISE EXCEPTION 'Физическое лицо с указанным ID (%) не найдено', p_personid
            USING ERRCODE = 'P0001', DETAIL = '50104', HINT = 'PersonID';
    END IF;
    INSERT INTO "pAPI_Deposit_List" (depositid, personid, contractnumber, productname, opendate, enddate, amount,
        rate, currencycode, accountid)
    SELECT d.deposit_id, d.person_id, d.contract_number, d.product_name, d.open_date, d.end_date,
           bank.deposit_amount(d), d.rate, d.currency_code, d.account_id
    FROM bank.deposit d
    WHERE d.person_id = p_personid
      AND (p_onlyopenflag IS DISTINCT FROM 1 OR d.close_date IS NULL OR d.close_date > bank.oper_date())
    ORDER BY d.open_date, d.deposit_id;
END $$;
COMMENT ON PROCEDURE api."API_Dep_FindListByPersonID"(numeric, smallint) IS
    'Вклады физического лица; @OnlyOpenFlag = 1 — только действующие';

CREATE PROCEDURE api."API_Dep_FindByID"(p_depositid numeric)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Deposit_Info";
    PERFORM bank.require_param(p_depositid IS NULL, 'DepositID');
    INSERT INTO "pAPI_Deposit_Info" (depositid, personid, contractnumber, productname, opendate, enddate, amount,
        rate, currencycode, accountid, capitalizationflag)
    SELECT d.deposit_id, d.person_id, d.contract_number, d.product_name, d.open_date, d.end_date,
           bank.deposit_amount(d), d.rate, d.currency_code, d.account_id, d.capitalization_flag
    FROM bank.deposit d WHERE d.deposit_id = p_depositid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Вклад с указанным ID (%) не найден', p_depositid
            USING ERRCODE = 'P0001', DETAIL = '50501', HINT = 'DepositID';
    END IF;
END $$;
COMMENT ON PROCEDURE api."API_Dep_FindByID"(numeric) IS 'Данные вклада по ID, включая признак капитализации';

-- Card: cards -------------------------------------------------------------------------------------------

CREATE PROCEDURE api."API_Card_FindListByAccID"(p_accountid numeric)
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "pAPI_Card_List";
    PERFORM bank.require_param(p_accountid IS NULL, 'AccountID');
    IF NOT EXISTS (SELECT 1 FROM bank.account a WHERE a.account_id = p_accountid) THEN
        RAISE EXCEPTION 'Счёт с указанным ID (%) не найден', p_accountid
            USING ERRCODE = 'P0001', DETAIL = '50004', HINT = 'AccountID';
    END IF;
    INSERT INTO "pAPI_Card_List" (cardid, accountid, cardmask, expdate, cardstatus)
    SELECT c.card_id, c.account_id, c.card_mask, c.exp_date, c.card_status
    FROM bank.card c WHERE c.account_id = p_accountid
    ORDER BY c.exp_date DESC, c.card_id;
END $$;
COMMENT ON PROCEDURE api."API_Card_FindListByAccID"(numeric) IS 'Карты, выпущенные к счёту';

-- Plain functions returning rows (SELECT * FROM api."…"(…); no session tables) --------------------------

CREATE FUNCTION api."API_Crncy_GetRateList"(p_ratedate date DEFAULT NULL)
RETURNS TABLE (currencycode char(3), isoalpha char(3), ratedate date, nominal integer, rate numeric(19,8))
LANGUAGE sql STABLE AS $$
    SELECT c.currency_code, c.iso_alpha, r.rate_date, r.nominal, r.rate
    FROM bank.currency c
    JOIN LATERAL (SELECT cr.rate_date, cr.nominal, cr.rate FROM bank.currency_rate cr
                  WHERE cr.currency_code = c.currency_code
                    AND cr.rate_date <= coalesce(p_ratedate, bank.oper_date())
                  ORDER BY cr.rate_date DESC LIMIT 1) r ON true
    ORDER BY c.currency_code
$$;
COMMENT ON FUNCTION api."API_Crncy_GetRateList"(date) IS
    'Курсы валют к рублю на дату (последний установленный не позже даты; по умолчанию — операционный день)';

CREATE FUNCTION api."API_Acc_GetRestHistory"(p_accountid numeric, p_datefrom date, p_dateto date)
RETURNS TABLE (accountid numeric(15,0), restdate date, rest numeric(19,2))
LANGUAGE plpgsql STABLE AS $$
BEGIN
    PERFORM bank.require_param(p_accountid IS NULL, 'AccountID');
    PERFORM bank.require_param(p_datefrom IS NULL, 'DateFrom');
    PERFORM bank.require_param(p_dateto IS NULL, 'DateTo');
    IF p_datefrom > p_dateto THEN
        RAISE EXCEPTION 'Дата начала периода % позже даты окончания %', p_datefrom, p_dateto
            USING ERRCODE = 'P0001', DETAIL = '50006', HINT = 'DateFrom';
    END IF;
    IF p_dateto - p_datefrom > 366 THEN
        RAISE EXCEPTION 'Период длиннее 366 дней' USING ERRCODE = 'P0001', DETAIL = '50007', HINT = 'DateTo';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM bank.account a WHERE a.account_id = p_accountid) THEN
        RAISE EXCEPTION 'Счёт с указанным ID (%) не найден', p_accountid
            USING ERRCODE = 'P0001', DETAIL = '50004', HINT = 'AccountID';
    END IF;
    RETURN QUERY
    SELECT p_accountid::numeric(15,0), g.d::date, bank.rest_at(p_accountid, g.d::date)::numeric(19,2)
    FROM generate_series(p_datefrom, p_dateto, interval '1 day') AS g(d)
    ORDER BY 2;
END $$;
COMMENT ON FUNCTION api."API_Acc_GetRestHistory"(numeric, date, date) IS
    'Исходящие остатки счёта на конец каждого дня периода (не более 367 дней)';
