-- Procedures for tests only (loaded with load_bank_database(..., with_test_procedures=True)):
-- a slow one for timeout tests, one that always fails, and one that tries to write a real table
-- (it must fail under the read-only calling convention).

CREATE TABLE bank.write_probe (
    probe_id serial PRIMARY KEY,
    note     text NOT NULL
);
COMMENT ON TABLE bank.write_probe IS 'Только для тестов: API_Test_Write пытается писать сюда';

CREATE PROCEDURE api."API_Test_Sleep"(p_seconds numeric)
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bank.require_param(p_seconds IS NULL, 'Seconds');
    PERFORM pg_sleep(greatest(p_seconds, 0));
END $$;
COMMENT ON PROCEDURE api."API_Test_Sleep"(numeric) IS 'Тест: ждёт p_seconds секунд (для проверки таймаутов)';

CREATE PROCEDURE api."API_Test_Fail"()
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'Тестовая ошибка' USING ERRCODE = 'P0001', DETAIL = '59999', HINT = 'API_Test_Fail';
END $$;
COMMENT ON PROCEDURE api."API_Test_Fail"() IS 'Тест: всегда завершается ошибкой 59999';

CREATE PROCEDURE api."API_Test_Write"(p_note varchar DEFAULT 'probe')
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bank.write_probe (note) VALUES (coalesce(p_note, 'probe'));
END $$;
COMMENT ON PROCEDURE api."API_Test_Write"(varchar) IS
    'Тест: пишет в постоянную таблицу bank.write_probe — в транзакции READ ONLY должен падать';
