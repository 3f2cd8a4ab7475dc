package com.acme;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;

/** A user's class outside io.sluice, so the default allow-list refuses it. */
public record Order(String id, BigDecimal total, List<String> lines) implements Serializable {}
