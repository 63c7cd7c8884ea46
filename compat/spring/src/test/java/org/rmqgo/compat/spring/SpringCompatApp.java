package org.rmqgo.compat.spring;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Spring Boot application under test: the starter's auto-configuration
 * (RocketMQTemplate, listener containers, the transaction listener wiring)
 * plus the listener beans of this package, as a Spring shop writes them.
 */
@SpringBootApplication
public class SpringCompatApp {
}
